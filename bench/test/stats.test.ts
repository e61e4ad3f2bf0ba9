import { describe, expect, it } from 'vitest'
import { median, percentile, ratio, sorted, spread, tooNoisy } from '../src/stats.js'

describe('median', () => {
  it('takes the middle value of an odd count', () => {
    expect(median([5, 1, 3])).toBe(3)
  })

  it('averages the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5)
  })

  it('is NaN for no values', () => {
    expect(median([])).toBeNaN()
  })
})

describe('percentile', () => {
  const values = sorted(Array.from({ length: 100 }, (_, i) => 100 - i))

  it('returns the nearest-rank value', () => {
    expect(percentile(values, 50)).toBe(50)
    expect(percentile(values, 99)).toBe(99)
    expect(percentile(values, 100)).toBe(100)
  })

  it('clamps low percentiles to the smallest value', () => {
    expect(percentile(values, 0)).toBe(1)
  })
})

describe('ratio', () => {
  it('divides', () => {
    expect(ratio(8, 10)).toBeCloseTo(0.8)
  })

  it('is NaN when the reference is missing or zero', () => {
    expect(ratio(8, 0)).toBeNaN()
    expect(ratio(Number.NaN, 10)).toBeNaN()
  })
})

describe('spread and tooNoisy', () => {
  it('spread is max ÷ min − 1 of the rounds, NaN for fewer than two', () => {
    expect(spread([100, 110, 105])).toBeCloseTo(0.1)
    expect(spread([100])).toBeNaN()
    expect(spread([])).toBeNaN()
  })
  it('a gap wider than both spreads can be judged; a narrower one, or an unknown spread, cannot', () => {
    expect(tooNoisy({ rps: 120, spread: 0.05 }, { rps: 100, spread: 0.1 })).toBe(false)
    expect(tooNoisy({ rps: 105, spread: 0.05 }, { rps: 100, spread: 0.1 })).toBe(true)
    expect(tooNoisy({ rps: 200, spread: Number.NaN }, { rps: 100, spread: 0 })).toBe(true)
  })
})

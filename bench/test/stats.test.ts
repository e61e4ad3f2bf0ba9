import { describe, expect, it } from 'vitest'
import { median, percentile, ratio, sorted } from '../src/stats.js'

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

import { describe, expect, it } from 'vitest'
import { evaluateGoals } from '../src/goals.js'
import { fixture } from './fixture.js'

describe('evaluateGoals', () => {
  it('judges every goal of issues 6 and 13 from the figures', () => {
    const goals = evaluateGoals(fixture())
    expect(goals.map((goal) => [goal.goal, goal.value, goal.status])).toEqual([
      ['≥ 0.80', '0.85', 'reached'],
      ['≥ 0.60', '0.20', 'not reached'],
      ['≤ 1.2', '1.10', 'reached'],
      ['≤ 1.2', '1.50', 'not reached'],
      ['≤ 64 MB', '40.0 MB', 'reached'],
      ['≤ 5 %', '2.5 %', 'reached'],
      ['≤ 100 ms', '140.0 ms', 'not reached'],
    ])
  })

  it('marks a figure that was not measured as pending', () => {
    const { latency: _, sdk: __, fanOut: ___, ...rest } = fixture()
    const goals = evaluateGoals(rest)
    expect(goals.filter((goal) => goal.status === 'pending')).toHaveLength(4)
  })

  it('adds PostgreSQL goals only when PostgreSQL was loaded', () => {
    const results = fixture()
    expect(evaluateGoals(results).some((goal) => goal.figure.includes('PostgreSQL'))).toBe(false)
    const list = results.load[0]
    if (list)
      list.targets.postgres = {
        ...(list.targets.sqlite as NonNullable<typeof list.targets.sqlite>),
      }
    expect(
      evaluateGoals(results).filter((goal) => goal.figure.includes('PostgreSQL')),
    ).toHaveLength(2)
  })
})

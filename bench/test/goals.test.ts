import { describe, expect, it } from 'vitest'
import { evaluateGoals } from '../src/goals.js'
import { fixture } from './fixture.js'

describe('evaluateGoals', () => {
  it('judges the throughput and p99 goals at their concurrencies, then latency, streaming, the client and the feed', () => {
    const goals = evaluateGoals(fixture())
    expect(goals.map((goal) => [goal.goal, goal.value, goal.status])).toEqual([
      // full page at 50: 11,000 ÷ 12,000; p99 9 ÷ 8
      ['≥ 0.90', '0.92', 'reached'],
      ['≤ 2', '1.13', 'reached'],
      // tail page at 50: 6,000 ÷ 12,000; p99 20 ÷ 8
      ['≥ 0.90', '0.50', 'not reached'],
      ['≤ 2', '2.50', 'not reached'],
      // durable POST at 50, then at 10
      ['≥ 0.65', '0.67', 'reached'],
      ['≤ 2', '1.50', 'reached'],
      ['≥ 0.45', '0.20', 'not reached'],
      ['≤ 2', '5.00', 'not reached'],
      // durable PATCH at 50: 6,000 ÷ 12,000 (its goal is 0.45); p99 10 ÷ 8 (at most 3×)
      ['≥ 0.45', '0.50', 'reached'],
      ['≤ 3', '1.25', 'reached'],
      // durable POST ÷ the perfectly batched limit, at 10 and 50
      ['≥ 0.75', '0.40', 'not reached'],
      ['≥ 0.75', '0.80', 'reached'],
      ['≤ 1.2', '1.10', 'reached'],
      ['≤ 1.2', '1.50', 'not reached'],
      ['≤ 64 MB', '40.0 MB', 'reached'],
      ['≤ 5 %', '2.5 %', 'reached'],
      ['≤ 100 ms', '140.0 ms', 'not reached'],
    ])
    expect(goals[4]?.figure).toBe('durable POST /task req/s ÷ ceiling, 50 connections (SQLite)')
  })

  it('marks a figure that was not measured as pending', () => {
    const { latency: _, sdk: __, fanOut: ___, batchedLimits: ____, ...rest } = fixture()
    // Without the tail page at all: its two goals are pending too; so are the two shares
    // of the batched limit.
    rest.load = rest.load.filter((scenario) => scenario.id !== 'tail')
    const goals = evaluateGoals(rest)
    expect(goals.filter((goal) => goal.status === 'pending')).toHaveLength(8)
  })

  it('adds PostgreSQL goals, with its own targets, only when PostgreSQL was loaded', () => {
    const results = fixture()
    expect(evaluateGoals(results).some((goal) => goal.figure.includes('PostgreSQL'))).toBe(false)
    for (const scenario of results.load) {
      for (const point of scenario.points) point.targets.postgres = point.targets.sqlite
    }
    const postgres = evaluateGoals(results).filter((goal) => goal.figure.includes('PostgreSQL'))
    // The same figures as SQLite's: PostgreSQL's targets are lower, its p99 bound is 3×.
    expect(postgres.map((goal) => [goal.goal, goal.status])).toEqual([
      ['≥ 0.85', 'reached'],
      ['≤ 3', 'reached'],
      ['≥ 0.85', 'not reached'],
      ['≤ 3', 'reached'],
      ['≥ 0.50', 'reached'],
      ['≤ 3', 'reached'],
      ['≥ 0.30', 'not reached'],
      ['≤ 3', 'not reached'],
      ['≥ 0.40', 'reached'],
      ['≤ 3', 'reached'],
      // No batched limit was computed for PostgreSQL in the fixture.
      ['≥ 0.75', 'pending'],
      ['≥ 0.75', 'pending'],
    ])
  })
})

describe('the authenticated goals', () => {
  /** An ablation row of the built server with a credential, `delta` from open mode. */
  const row = (variant: string, scenario: 'full' | 'tail' | 'create' | 'patch', delta: number) => ({
    scenario,
    variant,
    label: variant,
    rps: 1000 * (1 + delta),
    rounds: [1000 * (1 + delta)],
    spread: 0,
    failed: 0,
    ratio: 0.5,
    cpuMicros: 40,
    baseline: 'built',
    delta,
  })

  it("judges each credential's full page, tail page and POST against open mode, within 5 %", () => {
    const results = {
      ...fixture(),
      ablation: {
        connections: 50,
        rounds: 2,
        seconds: 2,
        rows: [
          row('rights', 'full', -0.03),
          row('rights', 'tail', -0.08),
          row('rights', 'create', 0.01),
          // PATCH has no such goal.
          row('rights', 'patch', -0.5),
          row('jwt', 'full', -0.05),
        ],
      },
    }
    const goals = evaluateGoals(results).filter((goal) => goal.figure.includes('open mode'))
    expect(goals.map((goal) => [goal.figure, goal.value, goal.status])).toEqual([
      [
        "full page with an editor's access token ÷ open mode, 50 connections (SQLite)",
        '0.97',
        'reached',
      ],
      [
        "tail page with an editor's access token ÷ open mode, 50 connections (SQLite)",
        '0.92',
        'not reached',
      ],
      [
        "durable POST with an editor's access token ÷ open mode, 50 connections (SQLite)",
        '1.01',
        'reached',
      ],
      ["full page with an app's JWT ÷ open mode, 50 connections (SQLite)", '0.95', 'reached'],
    ])
  })

  it('has none without an ablation', () => {
    expect(evaluateGoals(fixture()).some((goal) => goal.figure.includes('open mode'))).toBe(false)
  })
})

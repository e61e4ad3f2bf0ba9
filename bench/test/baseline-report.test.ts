import { describe, expect, it } from 'vitest'
import { baselineTable } from '../src/baseline-report.js'
import { evaluateGoals } from '../src/goals.js'
import type { TargetFigures } from '../src/results.js'
import { fixture } from './fixture.js'

const figures = (rps: number, p99: number, spread: number): TargetFigures => ({
  rps,
  p50: p99 / 2,
  p99,
  failed: 0,
  rounds: [{ rps, p50: p99 / 2, p99 }],
  spread,
})

/** The fixture with a baseline on POST at 10 connections and on the full page at 50. */
function withBaseline() {
  const partial = fixture()
  const create = partial.load.find((s) => s.id === 'create')?.points[0]
  const full = partial.load.find((s) => s.id === 'full')?.points[1]
  if (!create || !full) throw new Error('the fixture changed')
  create.targets.sqlite = figures(3_000, 6, 0.05)
  create.targets.baseline = figures(4_000, 4, 0.05)
  full.targets.sqlite = figures(11_000, 9, 0.2)
  full.targets.baseline = figures(10_500, 9, 0.2)
  return { ...partial, goals: evaluateGoals(partial) }
}

describe('baselineTable', () => {
  it('divides this build by the baseline, req/s and p99, and judges the gap', () => {
    const table = baselineTable(withBaseline())
    expect(table).toMatch(
      /POST \/task \(durable\)\s+10\s+4000\s+3000\s+0\.75\s+4\.00\s+6\.00\s+1\.50\s+slower/,
    )
    // A 5 % gap under 20 % spreads says nothing.
    expect(table).toMatch(
      /\(full page\)\s+50\s+10500\s+11000\s+1\.05\s+9\.00\s+9\.00\s+1\.00\s+too noisy to judge/,
    )
  })

  it('leaves out the points without a baseline, and is empty without any', () => {
    expect(baselineTable(withBaseline())).not.toMatch(/tail page/)
    const partial = fixture()
    expect(baselineTable({ ...partial, goals: evaluateGoals(partial) })).toBe('')
  })
})

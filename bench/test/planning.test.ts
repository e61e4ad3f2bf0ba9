import { describe, expect, it } from 'vitest'
import type { LoadResult } from '../src/load.js'
import { PLAIN_PAGE, PLANNING_SHAPES, summarizePlanning } from '../src/planning.js'
import { planningTable, webhooksTable } from '../src/planning-report.js'
import { deliveryRate } from '../src/webhooks.js'

const run = (rps: number, p99: number, failed = 0): LoadResult => ({
  rps,
  p50: p99 / 2,
  p99,
  ok: rps,
  failed,
})
const due = PLANNING_SHAPES.find((s) => s.id === 'due')
if (!due) throw new Error('no due shape')

describe('summarizePlanning', () => {
  const figures = summarizePlanning('sqlite', 1_000, [
    { shape: PLAIN_PAGE, rows: 20, rounds: [run(1000, 2), run(3000, 6), run(2000, 4)] },
    { shape: due, rows: 20, rounds: [run(500, 8, 1), run(1500, 12, 2)] },
  ])

  it('takes the median of the rounds, and adds up their failures', () => {
    expect(figures[0]).toMatchObject({ shape: 'plain', rps: 2000, p99: 4, failed: 0 })
    expect(figures[1]).toMatchObject({ shape: 'due', rps: 1000, p99: 10, failed: 3 })
  })

  it('divides each shape by the plain page: req/s and p99', () => {
    expect(figures[1]?.ratio).toEqual({ rps: 0.5, p99: 2.5 })
    expect(figures[0]?.ratio.rps).toBeNaN()
  })

  it('prints them in a table, the ratio beside each figure', () => {
    const table = planningTable(figures)
    expect(table).toMatch(/GET \/tasks\?limit=20\s+SQLite\s+1,000\s+20\s+2000\s+4\.00\s+–\s+–\s+0/)
    expect(table).toMatch(
      /GET \/tasks\?limit=20&sort=due\s+SQLite\s+1,000\s+20\s+1000\s+10\.00\s+0\.50\s+2\.50\s+3/,
    )
  })

  it('gives no ratio when the plain page was not measured', () => {
    const [alone] = summarizePlanning('sqlite', 10, [{ shape: due, rows: 3, rounds: [run(10, 1)] }])
    expect(alone?.ratio.rps).toBeNaN()
  })
})

describe('deliveryRate', () => {
  it('counts every webhook sent every change', () => {
    expect(deliveryRate(100, 50, 2)).toBe(2500)
    expect(deliveryRate(1, 50, 0.5)).toBe(100)
  })

  it('is NaN for no time at all', () => {
    expect(deliveryRate(1, 50, 0)).toBeNaN()
  })

  it('prints each figure against one webhook', () => {
    const table = webhooksTable([
      { webhooks: 1, changes: 50, seconds: 0.5, perSecond: 100, received: 50 },
      { webhooks: 100, changes: 50, seconds: 2, perSecond: 2500, received: 5001 },
    ])
    expect(table).toMatch(/^1\s+50\s+50\s+0\.50\s+100\s+–\s+50$/m)
    expect(table).toMatch(/^100\s+50\s+5000\s+2\.00\s+2500\s+25\.00\s+5001$/m)
  })
})

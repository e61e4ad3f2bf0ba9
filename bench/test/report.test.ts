import { describe, expect, it } from 'vitest'
import { escapeXml, renderChart } from '../src/chart.js'
import { batchedLimits } from '../src/commit-cost.js'
import { evaluateGoals } from '../src/goals.js'
import { ablationTable, batchedTable, formatTable, goalsTable, loadTable } from '../src/report.js'
import { fixture } from './fixture.js'

const results = () => {
  const partial = fixture()
  partial.batchedLimits = batchedLimits(
    partial.load.find((s) => s.id === 'create'),
    partial.commitCost as NonNullable<typeof partial.commitCost>,
  )
  return { ...partial, goals: evaluateGoals(partial) }
}

describe('formatTable', () => {
  it('pads columns: the first to the left, the others to the right', () => {
    expect(
      formatTable([
        ['a', 'bb'],
        ['ccc', 'd'],
      ]),
    ).toBe('a    bb\nccc   d')
  })
})

describe('the printed tables', () => {
  it('show each tasklane figure at each concurrency with its ratio to the ceiling', () => {
    const table = loadTable(results())
    expect(table).toMatch(
      /GET \/tasks\?limit=20 \(full page\)\s+10\s+tasklane SQLite\s+8500\s+–\s+0\.60\s+2\.50\s+0\.85/,
    )
    expect(table).toMatch(
      /\(tail page\)\s+50\s+tasklane SQLite\s+6000\s+–\s+4\.00\s+20\.00\s+0\.50/,
    )
  })

  it('mark each goal reached or not reached', () => {
    expect(goalsTable(results())).toMatch(
      /durable POST \/task req\/s ÷ ceiling, 10 connections \(SQLite\)\s+≥ 0\.45\s+0\.20\s+not reached/,
    )
  })

  it('show the perfectly batched limit: connections ÷ commit latency, capped by the ceiling', () => {
    // fsync 2 ms: 10 connections → 5,000/s; 50 → 25,000/s, capped at the ceiling's 12,000.
    const table = batchedTable(results())
    expect(table).toMatch(/tasklane SQLite\s+10\s+5000\s+2000\s+0\.40/)
    expect(table).toMatch(/tasklane SQLite\s+50\s+12000\s+8000\s+0\.67/)
  })

  it('names each durable write by its request: POST, PATCH and DELETE', () => {
    const partial = fixture()
    const limit = {
      target: 'sqlite' as const,
      connections: 10,
      limit: 5_000,
      measured: 1_000,
      ratio: 0.2,
    }
    partial.batchedLimits = (['create', 'patch', 'delete'] as const).map((scenario) => ({
      ...limit,
      scenario,
    }))
    const rows = batchedTable({ ...partial, goals: evaluateGoals(partial) })
      .split('\n')
      .filter((line) => /0\.20$/.test(line))
    expect(rows.map((row) => row.split(',')[0])).toEqual([
      'POST /task',
      'PATCH /tasks/{id}',
      'DELETE /tasks/{id}',
    ])
  })
})

describe('the ablation table', () => {
  it('gives each feature its difference from tasklane whole, or says it is within the noise', () => {
    const row = (variant: string, rps: number, spread: number, delta?: number, cpu = 100) => ({
      scenario: 'full' as const,
      variant,
      label: variant,
      rps,
      rounds: [rps],
      spread,
      failed: 0,
      ratio: rps / 10_000,
      cpuMicros: cpu,
      ...(delta === undefined
        ? {}
        : {
            baseline: 'whole',
            delta,
            microsPerRequest: 1e6 / 5_000 - 1e6 / rps,
            tooNoisy: delta < spread,
            cpuMicrosSaved: 100 - cpu,
          }),
    })
    const table = ablationTable({
      ...results(),
      ablation: {
        connections: 50,
        rounds: 3,
        seconds: 3,
        rows: [
          row('whole', 5_000, 0.02),
          row('without-metrics', 6_000, 0.03, 0.2, 87.5),
          row('without-overload', 5_050, 0.04, 0.01, 99),
        ],
      },
    })
    expect(table).toMatch(
      /without-metrics\s+6000\s+3 %\s+0\.60\s+\+20\.0 %\s+33\.3\s+measurable\s+87\.5\s+12\.5/,
    )
    expect(table).toMatch(
      /without-overload\s+5050\s+4 %\s+0\.51\s+\+1\.0 %\s+2\.0\s+too noisy to judge\s+99\.0\s+1\.0/,
    )
    expect(table).toMatch(/whole\s+5000\s+2 %\s+0\.50\s+100\.0\s*$/m)
  })
})

describe('renderChart', () => {
  it('is one SVG document that names the command and the machine', () => {
    const svg = renderChart(results())
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true)
    expect(svg).toContain('$ pnpm bench -- --quick')
    expect(svg).toContain('2 × Test CPU &lt;x86&gt;')
    expect(svg).toContain('Node v20.0.0')
  })

  it('draws a line per server and scenario, and the batched limit dashed', () => {
    const svg = renderChart(results())
    // 4 scenarios × (ceiling, SQLite), and SQLite's batched limit on the durable POST.
    expect(svg.match(/<polyline [^>]*stroke-width="2"\/>/g)).toHaveLength(8)
    expect(svg.match(/<polyline [^>]*stroke-dasharray/g)).toHaveLength(1)
  })

  it('escapes text', () => {
    expect(escapeXml(`a<b>&"c"`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;')
  })
})

import { describe, expect, it } from 'vitest'
import { escapeXml, renderChart } from '../src/chart.js'
import { evaluateGoals } from '../src/goals.js'
import { formatTable, goalsTable, loadTable } from '../src/report.js'
import { fixture } from './fixture.js'

const results = () => {
  const partial = fixture()
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
  it('show each tasklane figure with its ratio to the ceiling', () => {
    const table = loadTable(results())
    expect(table).toMatch(/GET \/tasks\?limit=20\s+tasklane SQLite\s+8500\s+0\.60\s+2\.50\s+0\.85/)
  })

  it('mark each goal reached or not reached', () => {
    expect(goalsTable(results())).toMatch(/POST \/task durable.*0\.20\s+not reached/)
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

  it('draws one bar per server and scenario', () => {
    expect(renderChart(results()).match(/<rect [^>]*height="16"/g)).toHaveLength(4)
  })

  it('escapes text', () => {
    expect(escapeXml(`a<b>&"c"`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;')
  })
})

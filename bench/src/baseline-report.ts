import { formatTable } from './report.js'
import type { BenchResults } from './results.js'
import { ratio, tooNoisy } from './stats.js'

const fixed = (value: number, digits: number) =>
  Number.isFinite(value) ? value.toFixed(digits) : '–'

/**
 * This build against `--baseline`, both on SQLite in the same interleaved sweep: for each
 * scenario and concurrency, each one's req/s and p99 and this ÷ baseline. On the durable
 * POST and PATCH rows, 1 − (× req/s) is the share of the baseline's writes a second that
 * this build's extra work (its history rows, say) costs. Empty without a baseline.
 */
export function baselineTable(results: BenchResults): string {
  const rows: string[][] = [
    [
      'scenario',
      'conn',
      'baseline req/s',
      'this req/s',
      '× req/s',
      'baseline p99',
      'this p99',
      '× p99',
      'judged',
    ],
  ]
  for (const scenario of results.load) {
    for (const point of scenario.points) {
      const { baseline, sqlite } = point.targets
      if (!baseline || !sqlite) continue
      const judged =
        baseline.spread === undefined || sqlite.spread === undefined
          ? ''
          : tooNoisy(
                { rps: sqlite.rps, spread: sqlite.spread },
                { rps: baseline.rps, spread: baseline.spread },
              )
            ? 'too noisy to judge'
            : sqlite.rps > baseline.rps
              ? 'faster'
              : 'slower'
      rows.push([
        scenario.label,
        String(point.connections),
        fixed(baseline.rps, 0),
        fixed(sqlite.rps, 0),
        fixed(ratio(sqlite.rps, baseline.rps), 2),
        fixed(baseline.p99, 2),
        fixed(sqlite.p99, 2),
        fixed(ratio(sqlite.p99, baseline.p99), 2),
        judged,
      ])
    }
  }
  if (rows.length === 1) return ''
  return `this build against the baseline (--baseline), SQLite, same run (×: this ÷ baseline)\n${formatTable(rows)}`
}

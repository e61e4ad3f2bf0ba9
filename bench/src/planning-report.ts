// The tables of `--planning` and `--webhooks`, in the style of report.ts.
import type { PlanningFigures } from './planning.js'
import { formatTable } from './report.js'
import { ratio } from './stats.js'
import type { DeliveryFigures } from './webhooks.js'

const fixed = (value: number | undefined, digits: number) =>
  value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits)

/** Each planning shape at each size: req/s and p99, and both against the plain page's. */
export function planningTable(figures: readonly PlanningFigures[]): string {
  const rows: string[][] = [
    ['listing', 'server', 'tasks', 'rows', 'req/s', 'p99 ms', '× req/s', '× p99', 'failed'],
  ]
  for (const f of figures) {
    rows.push([
      `GET ${f.path}`,
      f.backend === 'sqlite' ? 'SQLite' : 'PostgreSQL',
      f.tasks.toLocaleString('en'),
      String(f.rows),
      fixed(f.rps, 0),
      fixed(f.p99, 2),
      fixed(f.ratio.rps, 2),
      fixed(f.ratio.p99, 2),
      String(f.failed),
    ])
  }
  return `planning listings (× : against GET /tasks?limit=20 at the same size, this run)\n${formatTable(rows)}`
}

/** Each delivery figure, and its deliveries/s against the first (one webhook). */
export function webhooksTable(figures: readonly DeliveryFigures[]): string {
  const first = figures[0]
  const rows: string[][] = [
    ['webhooks', 'changes', 'deliveries', 'seconds', 'deliveries/s', '× one webhook', 'received'],
  ]
  for (const f of figures) {
    rows.push([
      String(f.webhooks),
      String(f.changes),
      String(f.webhooks * f.changes),
      fixed(f.seconds, 2),
      fixed(f.perSecond, 0),
      f === first ? '–' : fixed(ratio(f.perSecond, first?.perSecond ?? Number.NaN), 2),
      String(f.received),
    ])
  }
  return `webhook deliveries to a receiver on 127.0.0.1 answering 204\n${formatTable(rows)}`
}

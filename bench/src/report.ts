import type { BenchResults, ScenarioId, TargetId } from './results.js'
import { tooNoisy } from './stats.js'

/** Left-aligned first column, right-aligned others, padded to the widest cell. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = []
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length)
    })
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => {
          const pad = ' '.repeat((widths[i] ?? 0) - [...cell].length)
          return i === 0 ? cell + pad : pad + cell
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

const fixed = (value: number | undefined, digits: number) =>
  value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits)

/** A spread (max ÷ min − 1 of the rounds) as a percentage. */
const spreadOf = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '–' : `${(value * 100).toFixed(0)} %`

const LABELS: Record<TargetId, string> = {
  ceiling: 'ceiling',
  sqlite: 'tasklane SQLite',
  postgres: 'tasklane PostgreSQL',
  pgbouncer: 'tasklane PostgreSQL via PgBouncer',
  baseline: 'baseline build, SQLite',
}

/** The sweep: one row per scenario, concurrency and server, ratios to the ceiling's there. */
export function loadTable(results: BenchResults): string {
  const rows: string[][] = [
    [
      'scenario',
      'conn',
      'server',
      'req/s',
      'spread',
      'p50 ms',
      'p99 ms',
      '× req/s',
      '× p50',
      '× p99',
      'failed',
      'vs ceiling',
    ],
  ]
  for (const scenario of results.load) {
    for (const point of scenario.points) {
      const ceiling = point.targets.ceiling
      for (const target of ['ceiling', 'baseline', 'sqlite', 'postgres', 'pgbouncer'] as const) {
        const figures = point.targets[target]
        if (!figures) continue
        const judged =
          target === 'ceiling' ||
          !ceiling ||
          figures.spread === undefined ||
          ceiling.spread === undefined
            ? ''
            : tooNoisy(
                  { rps: figures.rps, spread: figures.spread },
                  { rps: ceiling.rps, spread: ceiling.spread },
                )
              ? 'too noisy to judge'
              : figures.rps > ceiling.rps
                ? 'above'
                : 'below'
        rows.push([
          scenario.label,
          String(point.connections),
          LABELS[target],
          fixed(figures.rps, 0),
          spreadOf(figures.spread),
          fixed(figures.p50, 2),
          fixed(figures.p99, 2),
          fixed(figures.ratio?.rps, 2),
          fixed(figures.ratio?.p50, 2),
          fixed(figures.ratio?.p99, 2),
          String(figures.failed),
          judged,
        ])
      }
    }
  }
  return formatTable(rows)
}

/** The durable writes of the batched-limit table, as their requests read. */
const WRITES: Partial<Record<ScenarioId, string>> = {
  create: 'POST /task',
  patch: 'PATCH /tasks/{id}',
  delete: 'DELETE /tasks/{id}',
}

/** Durable POST, PATCH and DELETE against what perfect batching could reach on this machine's commits. */
export function batchedTable(results: BenchResults): string {
  const { commitCost, batchedLimits } = results
  if (!commitCost || !batchedLimits?.length) return ''
  const cost = [`SQLite: fsync of a 4 KiB append ${fixed(commitCost.sqliteFsyncMs, 3)} ms`]
  if (commitCost.postgresCommitMs !== undefined) {
    cost.push(`PostgreSQL: single-row committed insert ${fixed(commitCost.postgresCommitMs, 3)} ms`)
  }
  const rows: string[][] = [
    ['durable write', 'conn', 'perfectly batched req/s', 'measured req/s', '× limit'],
    ...batchedLimits.map((limit) => [
      `${WRITES[limit.scenario ?? 'create'] ?? limit.scenario}, ${LABELS[limit.target]}`,
      String(limit.connections),
      fixed(limit.limit, 0),
      fixed(limit.measured, 0),
      fixed(limit.ratio, 2),
    ]),
  ]
  return `commit latency (median, this run): ${cost.join('; ')}\nperfectly batched: connections ÷ commit latency, at most the ceiling's figure for that write\n${formatTable(rows)}`
}

/**
 * The ablation: each variant's median and spread, its ratio to the ceiling, and
 * against its baseline (tasklane whole; for tracing, the built server without it) the
 * difference in req/s and in µs a request, or "too noisy to judge".
 */
export function ablationTable(results: BenchResults): string {
  const ablation = results.ablation
  if (!ablation) return ''
  const rows: string[][] = [
    [
      'scenario',
      'server',
      'req/s',
      'spread',
      '× ceiling',
      'Δ req/s',
      'µs/request',
      'judged',
      'CPU µs/req',
      'CPU price',
    ],
  ]
  for (const row of ablation.rows) {
    const delta = row.delta
    rows.push([
      row.scenario,
      row.label,
      fixed(row.rps, 0),
      spreadOf(row.spread),
      fixed(row.ratio, 2),
      delta === undefined ? '' : `${delta >= 0 ? '+' : ''}${(delta * 100).toFixed(1)} %`,
      row.microsPerRequest === undefined ? '' : fixed(row.microsPerRequest, 1),
      row.tooNoisy === undefined ? '' : row.tooNoisy ? 'too noisy to judge' : 'measurable',
      fixed(row.cpuMicros, 1),
      row.cpuMicrosSaved === undefined ? '' : fixed(row.cpuMicrosSaved, 1),
    ])
  }
  return `ablation at ${ablation.connections} connections, ${ablation.rounds} rounds × ${ablation.seconds} s (Δ, µs/request and CPU price: against tasklane whole; tracing and the storage's parts against the built server; CPU: the server's own user + system time over the requests answered)\n${formatTable(rows)}`
}

/** The goals table, in the order evaluateGoals gives them. */
export function goalsTable(results: BenchResults): string {
  return formatTable([
    ['goal', 'target', 'measured', 'status'],
    ...results.goals.map((goal) => [goal.figure, goal.goal, goal.value, goal.status]),
  ])
}

/** The figures measured besides the load table. */
export function otherFigures(results: BenchResults): string {
  const rows: string[][] = [['figure', 'value']]
  const { latency, streaming, inserts, sdk, fanOut } = results
  if (latency) {
    const small = latency.smallTasks.toLocaleString('en')
    const large = latency.largeTasks.toLocaleString('en')
    rows.push(
      [`list limit=20, ${small} tasks (median ms)`, fixed(latency.firstPage.smallMs, 3)],
      [`list limit=20, ${large} tasks (median ms)`, fixed(latency.firstPage.largeMs, 3)],
      [
        `list after=${latency.deepCursor.smallAfter}, ${small} tasks (median ms)`,
        fixed(latency.deepCursor.smallMs, 3),
      ],
      [
        `list after=${latency.deepCursor.largeAfter}, ${large} tasks (median ms)`,
        fixed(latency.deepCursor.largeMs, 3),
      ],
    )
    const tail = latency.tailPage
    if (tail) {
      rows.push(
        [
          `list after=${tail.smallAfter} (last page, uncached), ${small} tasks`,
          fixed(tail.smallMs, 3),
        ],
        [
          `list after=${tail.largeAfter} (last page, uncached), ${large} tasks`,
          fixed(tail.largeMs, 3),
        ],
      )
    }
  }
  if (streaming) {
    rows.push(
      [`stream all ${streaming.tasks.toLocaleString('en')} tasks (s)`, fixed(streaming.seconds, 2)],
      ['  response size (MB)', fixed(streaming.megabytes, 1)],
      [
        '  server RSS before → peak (MB)',
        `${fixed(streaming.rssBeforeMB, 1)} → ${fixed(streaming.rssPeakMB, 1)}`,
      ],
    )
  }
  if (inserts) {
    rows.push(
      ['durable POST /task, 1 connection (req/s)', fixed(inserts.oneConnection, 0)],
      [
        `durable POST /task, ${inserts.connections} connections (req/s)`,
        fixed(inserts.concurrent, 0),
      ],
      [`  same, group commit switched off (req/s)`, fixed(inserts.withoutGroupCommit, 0)],
      ['raw better-sqlite3 FULL, 1 insert per commit (/s)', fixed(inserts.sqliteOnePerCommit, 0)],
      [
        'raw better-sqlite3 FULL, 100 inserts per commit (/s)',
        fixed(inserts.sqliteHundredPerCommit, 0),
      ],
    )
  }
  if (sdk) {
    rows.push(
      ['raw fetch GET /tasks?limit=20 (median ms)', fixed(sdk.rawMs, 3)],
      ['client.listTasks(20) (median ms)', fixed(sdk.clientMs, 3)],
    )
  }
  if (fanOut) {
    const each = `${fanOut.subscribers.toLocaleString('en')} subscribers × ${fanOut.tasks} tasks`
    rows.push(
      [`change feed, ${each}: 201 → delivery p50 (ms)`, fixed(fanOut.p50Ms, 1)],
      ['  p99 (ms)', fixed(fanOut.p99Ms, 1)],
      ['  max (ms)', fixed(fanOut.maxMs, 1)],
      ['  server memory per idle subscriber (KB)', fixed(fanOut.kbPerSubscriber, 1)],
    )
  }
  return formatTable(rows)
}

import type { BenchResults, Goal, GoalStatus, ScenarioId, TargetId } from './results.js'

const BACKENDS: [TargetId, string][] = [
  ['sqlite', 'SQLite'],
  ['postgres', 'PostgreSQL'],
]

function status(value: number | undefined, reached: (value: number) => boolean): GoalStatus {
  return value === undefined || !Number.isFinite(value)
    ? 'pending'
    : reached(value)
      ? 'reached'
      : 'not reached'
}

const fixed = (value: number | undefined, digits = 2) =>
  value === undefined || !Number.isFinite(value) ? 'not measured' : value.toFixed(digits)

/**
 * The throughput goals (the performance bar of docs/performance.md): [scenario,
 * connections, SQLite's and PostgreSQL's least ratio, and the most a p99 may be as a
 * multiple of the ceiling's on SQLite (PostgreSQL: always 3)].
 */
const THROUGHPUT_GOALS: [ScenarioId, number, string, number, number, number][] = [
  ['full', 50, 'GET /tasks?limit=20, full page', 0.9, 0.85, 2],
  ['tail', 50, 'tail page (newest 20)', 0.9, 0.85, 2],
  ['create', 50, 'durable POST /task', 0.65, 0.5, 2],
  ['create', 10, 'durable POST /task', 0.45, 0.3, 2],
  ['patch', 50, 'durable PATCH /tasks/{id}', 0.45, 0.4, 3],
]

/**
 * Authenticated requests against open mode (--ablation, the built server): each credential's
 * variant, and the scenarios whose req/s must stay within 5 % of open mode's.
 */
const AUTHENTICATED: [string, string][] = [
  ['rights', "an editor's access token"],
  ['jwt', "an app's JWT"],
]
const AUTHENTICATED_SCENARIOS: [ScenarioId, string][] = [
  ['full', 'full page'],
  ['tail', 'tail page'],
  ['create', 'durable POST'],
]
const AUTHENTICATED_GOAL = 0.95

/** Durable POST as a share of the perfectly batched limit, at these concurrencies. */
const BATCHED_GOAL = 0.75
const BATCHED_CONNECTIONS = [10, 50]

/**
 * Throughput and p99 against the ceiling, then list latency, streaming, the client's
 * overhead and the feed's fan-out, each judged from the figures of this run.
 */
export function evaluateGoals(results: Omit<BenchResults, 'goals'>): Goal[] {
  const goals: Goal[] = []
  const point = (id: ScenarioId, connections: number) =>
    results.load.find((s) => s.id === id)?.points.find((p) => p.connections === connections)
  for (const [target, label] of BACKENDS) {
    if (!results.load.some((s) => s.points.some((p) => p.targets[target]))) continue
    const throughput: Goal[] = []
    const p99: Goal[] = []
    for (const [id, connections, figure, sqliteGoal, postgresGoal, sqliteP99] of THROUGHPUT_GOALS) {
      const least = target === 'sqlite' ? sqliteGoal : postgresGoal
      const ratio = point(id, connections)?.targets[target]?.ratio
      throughput.push({
        figure: `${figure} req/s ÷ ceiling, ${connections} connections (${label})`,
        goal: `≥ ${least.toFixed(2)}`,
        value: fixed(ratio?.rps),
        status: status(ratio?.rps, (v) => v >= least),
      })
      const most = target === 'sqlite' ? sqliteP99 : 3
      p99.push({
        figure: `  its p99 ÷ ceiling's p99 (${label})`,
        goal: `≤ ${most}`,
        value: fixed(ratio?.p99),
        status: status(ratio?.p99, (v) => v <= most),
      })
    }
    for (const [i, goal] of throughput.entries()) goals.push(goal, p99[i] as Goal)
    for (const connections of BATCHED_CONNECTIONS) {
      const share = results.batchedLimits?.find(
        (limit) =>
          limit.target === target &&
          limit.connections === connections &&
          (limit.scenario ?? 'create') === 'create',
      )?.ratio
      goals.push({
        figure: `durable POST /task ÷ perfectly batched limit, ${connections} connections (${label})`,
        goal: `≥ ${BATCHED_GOAL.toFixed(2)}`,
        value: fixed(share),
        status: status(share, (v) => v >= BATCHED_GOAL),
      })
    }
  }
  for (const [variant, credential] of AUTHENTICATED) {
    for (const [scenario, figure] of AUTHENTICATED_SCENARIOS) {
      const row = results.ablation?.rows.find(
        (r) => r.variant === variant && r.scenario === scenario,
      )
      if (!row) continue
      const share = row.delta === undefined ? undefined : 1 + row.delta
      goals.push({
        figure: `${figure} with ${credential} ÷ open mode, ${results.ablation?.connections} connections (SQLite)`,
        goal: `≥ ${AUTHENTICATED_GOAL.toFixed(2)}`,
        value: fixed(share),
        status: status(share, (v) => v >= AUTHENTICATED_GOAL),
      })
    }
  }
  const latency = results.latency
  goals.push({
    figure: `list latency ${latency ? `${latency.largeTasks / 1e6}M ÷ ${latency.smallTasks / 1e3}k` : '1M ÷ 1k'} tasks, first page`,
    goal: '≤ 1.2',
    value: fixed(latency?.firstPage.ratio),
    status: status(latency?.firstPage.ratio, (v) => v <= 1.2),
  })
  goals.push({
    figure: 'list latency, deep cursor',
    goal: '≤ 1.2',
    value: fixed(latency?.deepCursor.ratio),
    status: status(latency?.deepCursor.ratio, (v) => v <= 1.2),
  })
  const growth = results.streaming?.rssGrowthMB
  goals.push({
    figure: `streaming ${results.streaming ? results.streaming.tasks.toLocaleString('en') : '1M'} tasks: server RSS growth`,
    goal: '≤ 64 MB',
    value: growth === undefined ? 'not measured' : `${growth.toFixed(1)} MB`,
    status: status(growth, (v) => v <= 64),
  })
  const overhead = results.sdk?.overhead
  goals.push({
    figure: 'client SDK overhead vs raw fetch',
    goal: '≤ 5 %',
    value: overhead === undefined ? 'not measured' : `${(overhead * 100).toFixed(1)} %`,
    status: status(overhead, (v) => v <= 0.05),
  })
  const fanOut = results.fanOut
  goals.push({
    figure: `change feed, ${fanOut ? fanOut.subscribers.toLocaleString('en') : '1,000'} subscribers: p99 from 201 to delivery`,
    goal: '≤ 100 ms',
    value: fanOut === undefined ? 'not measured' : `${fanOut.p99Ms.toFixed(1)} ms`,
    status: status(fanOut?.p99Ms, (v) => v <= 100),
  })
  return goals
}

import type { BenchResults, Goal, GoalStatus, TargetId } from './results.js'

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

/** Issue 6's goals and issue 13's, each judged from the figures of this run. */
export function evaluateGoals(results: Omit<BenchResults, 'goals'>): Goal[] {
  const goals: Goal[] = []
  const scenario = (id: string) => results.load.find((s) => s.id === id)
  for (const [target, label] of BACKENDS) {
    const list = scenario('list')?.targets[target]?.ratio?.rps
    const create = scenario('create')?.targets[target]?.ratio?.rps
    if (target === 'postgres' && list === undefined && create === undefined) continue
    goals.push({
      figure: `GET /tasks?limit=20 req/s ÷ ceiling (${label})`,
      goal: '≥ 0.80',
      value: fixed(list),
      status: status(list, (v) => v >= 0.8),
    })
    goals.push({
      figure: `POST /task durable req/s ÷ ceiling (${label})`,
      goal: '≥ 0.60',
      value: fixed(create),
      status: status(create, (v) => v >= 0.6),
    })
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

import { type LoadRequest, type LoadResult, load } from './load.js'
import type { ServerProcess } from './processes.js'
import type { ScenarioId, ScenarioResult, SweepPoint, TargetFigures, TargetId } from './results.js'
import { median, ratio, spread } from './stats.js'

/** One figure of the sweep: what each connection sends to a server, asked just before each load. */
export interface Scenario {
  readonly id: ScenarioId
  readonly label: string
  /** `seconds`: how long the load that sends them runs (0 for a single request). */
  requests(target: TargetId, server: ServerProcess, seconds?: number): Promise<LoadRequest[]>
}

export const POST_BODY = JSON.stringify({ name: 'Benchmark task', tag: 'bench' })

/** Servers found without PATCH /tasks/{id} (an older build): the PATCH scenarios skip them. */
const withoutPatch = new Set<string>()

/**
 * Whether `server` takes PATCH /tasks/{id}: an older build answers 404 or 405, and its
 * PATCH scenarios are skipped (the caller notes it) rather than counted as failures.
 */
export async function probePatch(server: ServerProcess): Promise<boolean> {
  const response = await fetch(`${server.url}/tasks/1`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Benchmark probe' }),
  })
  await response.arrayBuffer()
  const patchable = response.status !== 404 && response.status !== 405
  if (!patchable) withoutPatch.add(server.name)
  return patchable
}

let renamed = 0

/**
 * A PATCH of a random task of the seeded ones' lower half (ids 1 to `tasks` ÷ 2, as in
 * every run before the DELETE scenario had tasks of its own, so that figures compare) with
 * a name no task had before: each one changes something, so each is a durable write.
 */
function patchOf(tasks: number): { path: string; body: string } {
  const id = 1 + Math.floor(Math.random() * Math.floor(tasks / 2))
  renamed++
  return { path: `/tasks/${id}`, body: JSON.stringify({ name: `Renamed ${renamed}` }) }
}

/**
 * The tasks made for the DELETE scenario on one server: ids of live tasks that no other
 * scenario touches (newest last), how many there were when the last load began, how long
 * it ran, and the most DELETEs a second any of its loads took.
 */
interface Supply {
  ids: number[]
  handedOut: number
  seconds: number
  perSecond: number
}

const supplies = new Map<string, Supply>()

/** DELETEs a second assumed before a server's first load: above what any build has reached. */
const FIRST_GUESS_PER_SECOND = 10_000

/**
 * Tasks made for a load, as a multiple of the most a second its server's loads have taken
 * and the load's seconds: a higher concurrency than the last goes faster (1.5 ran short).
 */
const SUPPLY_MARGIN = 3

/** Tasks made in parallel while a supply is topped up. */
const SUPPLY_CONCURRENCY = 32

/**
 * DELETEs of tasks made for them: before each load, `server` gets enough new tasks (3×
 * the most its loads have taken a second, over `seconds`), made by POST /task and not
 * measured, and each request sent takes the newest of them. A load never runs short, so
 * none counts a 404; if one did, it would count as failed. The ceiling deletes nothing and
 * answers 204 to any id.
 */
async function deletes(
  target: TargetId,
  server: ServerProcess,
  tasks: number,
  seconds: number,
): Promise<LoadRequest[]> {
  if (target === 'ceiling') return [{ method: 'DELETE', path: `/tasks/${tasks}` }]
  const supply = supplies.get(server.name) ?? {
    ids: [],
    handedOut: 0,
    seconds: 0,
    perSecond: 0,
  }
  supplies.set(server.name, supply)
  if (supply.seconds > 0) {
    const taken = supply.handedOut - supply.ids.length
    supply.perSecond = Math.max(supply.perSecond, taken / supply.seconds)
  }
  const perSecond = supply.perSecond || FIRST_GUESS_PER_SECOND
  await makeTasks(
    server,
    Math.ceil(SUPPLY_MARGIN * perSecond * seconds) + 1 - supply.ids.length,
    supply.ids,
  )
  supply.handedOut = supply.ids.length
  supply.seconds = seconds
  // Past the supply (never expected): an id no task has, so the DELETE counts as failed.
  const path = () => `/tasks/${supply.ids.pop() ?? 0}`
  return [{ method: 'DELETE', path: path(), vary: () => ({ path: path() }) }]
}

/** Creates `count` tasks on `server`, `SUPPLY_CONCURRENCY` at a time, and pushes their ids. */
async function makeTasks(server: ServerProcess, count: number, ids: number[]): Promise<void> {
  let left = count
  const made: number[] = []
  const worker = async () => {
    for (; left > 0; left--) {
      const response = await fetch(`${server.url}/task`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...server.headers },
        body: POST_BODY,
      })
      const task = (await response.json()) as { id?: number }
      if (response.status !== 201 || task.id === undefined) {
        throw new Error(`${server.name}: POST /task answered ${response.status}`)
      }
      made.push(task.id)
    }
  }
  await Promise.all(Array.from({ length: SUPPLY_CONCURRENCY }, worker))
  ids.push(...made.sort((a, b) => a - b))
}

/** One request in 100 is a PATCH of a random seeded task, the others GET `path`. */
export function mixed(path: string, tasks: number): LoadRequest[] {
  const get = { method: 'GET' as const, path, body: undefined, headers: {} }
  return [
    {
      method: 'GET',
      path,
      vary: () =>
        Math.random() < 0.01
          ? { method: 'PATCH', ...patchOf(tasks), headers: { 'content-type': 'application/json' } }
          : get,
    },
  ]
}

/** The tail page's cursor on `server`: the ceiling's pretends `tasks` are seeded. */
async function tailPath(target: TargetId, server: ServerProcess, tasks: number): Promise<string> {
  const newest = target === 'ceiling' ? tasks : await newestId(server)
  return `/tasks?limit=20&after=${newest - 20}`
}

/** The id of the newest task a server lists (the ceiling answers its constant page). */
async function newestId(server: ServerProcess): Promise<number> {
  const response = await fetch(`${server.url}/tasks?limit=1&order=desc`, {
    headers: server.headers ?? {},
  })
  const [newest] = (await response.json()) as { id: number }[]
  if (response.status !== 200 || newest === undefined) {
    throw new Error(`${server.name}: GET /tasks?limit=1&order=desc answered ${response.status}`)
  }
  return newest.id
}

/**
 * The sweep's scenarios: a full page with more after it (cached), the tail page (the newest
 * 20 tasks: a last page, read from the database on every request, its cursor taken anew
 * before each load since creates move it), and the durable create. The ceiling answers
 * its 20 constant tasks to any cursor; it gets one of the seeded size, `tasks − 20`.
 */
export const scenarios = (tasks: number): readonly Scenario[] => [
  {
    id: 'full',
    label: 'GET /tasks?limit=20 (full page)',
    requests: async () => [{ method: 'GET', path: '/tasks?limit=20' }],
  },
  {
    id: 'tail',
    label: 'GET /tasks?limit=20&after=<newest − 20> (tail page)',
    requests: async (target, server) => [
      { method: 'GET', path: await tailPath(target, server, tasks) },
    ],
  },
  {
    id: 'create',
    label: 'POST /task (durable)',
    requests: async () => [{ method: 'POST', path: '/task', body: POST_BODY }],
  },
  {
    id: 'patch',
    label: 'PATCH /tasks/<random seeded id> (durable rename)',
    requests: async (_target, server) =>
      withoutPatch.has(server.name)
        ? []
        : [{ method: 'PATCH', ...patchOf(tasks), vary: () => patchOf(tasks) }],
  },
  {
    id: 'delete',
    label: 'DELETE /tasks/<a task made for it> (durable)',
    requests: async (target, server, seconds = 0) =>
      withoutPatch.has(server.name) ? [] : deletes(target, server, tasks, seconds),
  },
  {
    id: 'mixed-full',
    label: 'full page, 1 % of requests a durable PATCH',
    requests: async (_target, server) =>
      withoutPatch.has(server.name) ? [] : mixed('/tasks?limit=20', tasks),
  },
  {
    id: 'mixed-tail',
    label: 'tail page, 1 % of requests a durable PATCH',
    requests: async (target, server) =>
      withoutPatch.has(server.name) ? [] : mixed(await tailPath(target, server, tasks), tasks),
  },
]

/** The scenarios a run measures unless --scenarios names others. */
export const DEFAULT_SCENARIOS: readonly ScenarioId[] = ['full', 'tail', 'create', 'patch']

export interface SweepOptions {
  readonly connections: readonly number[]
  readonly rounds: number
  readonly seconds: number
  /** An unrecorded load of each scenario and server before the first round (JIT, caches). */
  readonly warmupSeconds: number
  readonly log: (message: string) => void
}

function figuresOf(rounds: readonly LoadResult[]): TargetFigures {
  return {
    spread: spread(rounds.map((r) => r.rps)),
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    failed: rounds.reduce((sum, r) => sum + r.failed, 0),
    rounds: rounds.map(({ rps, p50, p99 }) => ({ rps, p50, p99 })),
  }
}

/**
 * Every scenario at every concurrency on every server, interleaved: in each round, each
 * scenario and concurrency loads the servers one after the other, the order flipped every
 * round so that none always goes first. Medians over the rounds, and each tasklane
 * median's ratio to the ceiling's at the same concurrency.
 */
export async function runSweep(
  targets: readonly [TargetId, ServerProcess][],
  scenarios: readonly Scenario[],
  options: SweepOptions,
): Promise<ScenarioResult[]> {
  const runs = new Map<string, LoadResult[]>()
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse()
    for (const scenario of scenarios) {
      for (const connections of options.connections) {
        for (const [id, server] of order) {
          const warm = round === 0 && connections === options.connections[0]
          const seconds = options.seconds + (warm ? options.warmupSeconds : 0)
          const requests = await scenario.requests(id, server, seconds)
          // A scenario this server cannot take (PATCH on an older build): no figure.
          if (requests.length === 0) continue
          if (warm) {
            await load(server.url, requests, { connections, seconds: options.warmupSeconds })
          }
          const result = await load(server.url, requests, { connections, seconds: options.seconds })
          const key = `${scenario.id}/${connections}/${id}`
          runs.set(key, [...(runs.get(key) ?? []), result])
          options.log(
            `round ${round + 1}/${options.rounds} ${scenario.id.padEnd(10)} ${String(connections).padStart(3)} conn ${id.padEnd(8)} ${Math.round(result.rps).toString().padStart(6)} req/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms${result.failed ? `  failed ${result.failed}` : ''}`,
          )
        }
      }
    }
  }
  return scenarios.map((scenario) => ({
    id: scenario.id,
    label: scenario.label,
    points: options.connections.map((connections): SweepPoint => {
      const figures: SweepPoint['targets'] = {}
      for (const [id] of targets) {
        const rounds = runs.get(`${scenario.id}/${connections}/${id}`)
        if (rounds) figures[id] = figuresOf(rounds)
      }
      const ceiling = figures.ceiling
      for (const [id] of targets) {
        const target = figures[id]
        if (id === 'ceiling' || !target || !ceiling) continue
        target.ratio = {
          rps: ratio(target.rps, ceiling.rps),
          p50: ratio(target.p50, ceiling.p50),
          p99: ratio(target.p99, ceiling.p99),
        }
      }
      return { connections, targets: figures }
    }),
  }))
}

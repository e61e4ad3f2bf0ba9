// A LiveTasks scenario over any sort and the planning filters: random creates, changes,
// moves and deletes around a live copy, which must equal a fresh listTasks once caught up.
// Run on SQLite by live-tasks-sorts.e2e.test.ts, on PostgreSQL by live-tasks-sorts.slow.test.ts.
import fc from 'fast-check'
import { expect } from 'vitest'
import {
  createClient,
  isApiError,
  type MoveTarget,
  type Task,
  type TasklaneClient,
  type TaskSort,
  type TaskStatus,
} from '../src/index.js'
import { type LiveTasksOptions, liveTasks } from '../src/live.js'

/**
 * Dues around the edges of days: moments in several offsets, two that are the same instant
 * (ties by id), a leap second, fractions beyond milliseconds, and days.
 */
const DUES = [
  '2026-12-01',
  '2026-12-02',
  '2026-11-30',
  '2026-12-01T00:00:00+01:00',
  '2026-12-01T23:30:00-02:00',
  '2026-12-01T23:59:59.999Z',
  '2026-12-01T10:00:00Z',
  '2026-12-01T11:00:00+01:00',
  '2026-12-01T23:59:60Z',
  '2026-12-02T00:00:00.0001+00:00',
  '2026-12-01T12:00:00.123456789-05:30',
]
const due = fc.constantFrom(...DUES)
const priority = fc.integer({ min: 0, max: 3 })
const status = fc.constantFrom<TaskStatus>('open', 'done')

/** One change; `pick`, `ref` and `into` choose among the tasks and the two lists of the run. */
type Step =
  | { kind: 'create'; into: number; priority: number; due: string | undefined; status: TaskStatus }
  | {
      kind: 'patch'
      pick: number
      patch: { name?: string; priority?: number; due?: string | null; status?: TaskStatus }
    }
  | {
      kind: 'move'
      pick: number
      ref: number
      how: 'before' | 'after' | 'top' | 'bottom'
      into: number | undefined
    }
  | { kind: 'delete'; pick: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      into: fc.nat(1),
      priority,
      due: fc.option(due, { nil: undefined }),
      status,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('patch' as const),
      pick: fc.nat(),
      patch: fc.record(
        {
          name: fc.constantFrom('renamed', 'again'),
          priority,
          due: fc.option(due, { nil: null }),
          status,
        },
        { requiredKeys: [] },
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      pick: fc.nat(),
      ref: fc.nat(),
      how: fc.constantFrom('before' as const, 'after' as const, 'top' as const, 'bottom' as const),
      into: fc.option(fc.nat(1), { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
)

/** `arbitrary` one time in three, else undefined: views mostly wide enough to hold tasks. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary })

/** A view of the run's lists: one of them or both, in some order, maybe limited and filtered. */
const viewOf = (sort: TaskSort) =>
  fc.record({
    order: fc.constantFrom('asc' as const, 'desc' as const, 'desc' as const, undefined),
    limit: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    oneList: fc.boolean(),
    status: sometimes(status),
    priority: sometimes(priority),
    days: sometimes(
      fc.record(
        {
          dueFrom: fc.constantFrom('2026-12-01', '2026-12-02'),
          dueTo: fc.constantFrom('2026-12-01', '2026-12-02'),
          tz: fc.constantFrom('UTC', 'Europe/Paris', 'America/Sao_Paulo', 'Asia/Kolkata'),
        },
        { requiredKeys: [] },
      ),
    ),
    sort: fc.constant(sort),
  })

/** One run in `sort`: a view, changes before the live copy lists, changes while it follows. */
export const sortScenario = (sort: TaskSort) =>
  fc.record({
    view: viewOf(sort),
    before: fc.array(step, { maxLength: 12 }),
    during: fc.array(step, { minLength: 1, maxLength: 25 }),
  })

/** The seq of the newest change at `url`: a listing's Tasklane-Seq. */
export async function newestSeq(url: string): Promise<number> {
  const response = await fetch(`${url}/tasks?limit=0`)
  await response.body?.cancel()
  return Number(response.headers.get('tasklane-seq'))
}

/** Resolves once `done()` holds, checking every 20 ms; rejects naming `what` after 30 s. */
export async function until(done: () => boolean, what: () => string): Promise<void> {
  for (const start = Date.now(); !done(); ) {
    if (Date.now() - start > 30_000) throw new Error(`${what()} did not happen within 30 s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Makes one change; a refusal (a task deleted meanwhile, a move next to one in another list) is part of the game. */
async function make(
  client: TasklaneClient,
  st: Step,
  ids: number[],
  lists: [number, number],
): Promise<void> {
  const pick = (n: number) => ids[n % ids.length] as number
  try {
    if (st.kind === 'create' || ids.length === 0) {
      const task =
        st.kind === 'create'
          ? {
              name: 'new',
              listId: lists[st.into],
              priority: st.priority,
              status: st.status,
              ...(st.due === undefined ? {} : { due: st.due }),
            }
          : { name: 'new', listId: lists[0] }
      ids.push((await client.createTask(task)).id)
    } else if (st.kind === 'patch') {
      if (Object.keys(st.patch).length > 0) await client.updateTask(pick(st.pick), st.patch)
    } else if (st.kind === 'move') {
      const to: MoveTarget =
        st.how === 'top' || st.how === 'bottom'
          ? st.how
          : st.how === 'before'
            ? { before: pick(st.ref) }
            : { after: pick(st.ref) }
      const into = st.into === undefined ? {} : { listId: lists[st.into] }
      await client.moveTask(pick(st.pick), to, into)
    } else {
      await client.deleteTask(pick(st.pick))
    }
  } catch (error) {
    if (!(isApiError(error) && (error.status === 400 || error.status === 404))) throw error
  }
}

/** A run `sortScenario` makes. */
export type SortScenario = ReturnType<typeof sortScenario> extends fc.Arbitrary<infer S> ? S : never

/**
 * One run against the server at `url`: two fresh lists, some tasks, the live copy, more
 * changes while it follows; once caught up, it must equal a fresh listTasks.
 */
export async function checkSorted(url: string, s: SortScenario): Promise<void> {
  const client = createClient({ baseUrl: url, retry: { initialDelayMs: 20, maxDelayMs: 200 } })
  const lists = [
    (await client.createList({ name: 'first' })).id,
    (await client.createList({ name: 'second' })).id,
  ] as [number, number]
  const { oneList, days, ...rest } = s.view
  const options: LiveTasksOptions = {
    ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
    ...days,
  }
  // One list, or both (and whatever other runs left in theirs, which stays put).
  if (oneList) options.list = lists[0]
  const ids: number[] = []
  for (const st of s.before) await make(client, st, ids, lists)
  const live = liveTasks(client, options)
  const problems: string[] = []
  live.subscribe(() => {
    const shown = live.tasks.map((task) => task.id)
    if (new Set(shown).size !== shown.length) problems.push(`a duplicate in ${shown}`)
    if (shown.length > (options.limit ?? Number.POSITIVE_INFINITY)) problems.push('over its limit')
    for (const task of live.tasks) {
      if (options.priority !== undefined && task.priority !== options.priority)
        problems.push(`task ${task.id} of priority ${task.priority} shown`)
      if (options.list !== undefined && task.listId !== options.list)
        problems.push(`task ${task.id} of list ${task.listId} shown`)
    }
  })
  try {
    // Listed first, so that the changes reach it through the feed.
    await until(
      () => live.caughtUp,
      () => 'caught up',
    )
    for (const st of s.during) await make(client, st, ids, lists)
    const seq = await newestSeq(url)
    await until(
      () => live.seq >= seq && live.caughtUp,
      () => `${JSON.stringify(options)} caught up to ${seq} (at ${live.seq}, error ${live.error})`,
    )
    // Nothing changes after `seq`: a listing now is the view at it.
    const fresh = await client.listTasks(options.limit, options)
    const brief = (tasks: readonly Task[]) =>
      tasks.map((t) => `${t.id}v${t.version} l${t.listId}:${t.position} p${t.priority} ${t.due}`)
    expect({ options, tasks: brief(live.tasks) }).toEqual({ options, tasks: brief(fresh) })
    expect(live.tasks).toEqual(fresh)
    expect(problems).toEqual([])
  } finally {
    live.close()
  }
}

// LiveTasks over every sort and the planning filters, against a real server (SQLite): after
// random creates, changes, moves and deletes, a caught-up copy equals a fresh listTasks with
// the same options; a task changed out of a priority view leaves it; q and overdue are refused.
import { startServer } from '@tasklane/testing/server'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createClient,
  isApiError,
  type MoveTarget,
  type Task,
  type TasklaneClient,
  type TaskSort,
  type TaskStatus,
} from '../src/index.js'
import { LiveTasks, type LiveTasksOptions, liveTasks } from '../src/live.js'

let server: Awaited<ReturnType<typeof startServer>>
let client: TasklaneClient

beforeAll(async () => {
  server = await startServer()
  client = createClient({ baseUrl: server.url, retry: { initialDelayMs: 20, maxDelayMs: 200 } })
})
afterAll(() => server.close())

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

const scenario = (sort: TaskSort) =>
  fc.record({
    view: viewOf(sort),
    before: fc.array(step, { maxLength: 12 }),
    during: fc.array(step, { minLength: 1, maxLength: 25 }),
  })

/** The seq of the newest change: a listing's Tasklane-Seq. */
async function newestSeq(): Promise<number> {
  const response = await fetch(`${server.url}/tasks?limit=0`)
  await response.body?.cancel()
  return Number(response.headers.get('tasklane-seq'))
}

/** Resolves once `done()` holds, checking every 20 ms; rejects naming `what` after 30 s. */
async function until(done: () => boolean, what: () => string): Promise<void> {
  for (const start = Date.now(); !done(); ) {
    if (Date.now() - start > 30_000) throw new Error(`${what()} did not happen within 30 s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Makes one change; a refusal (a task deleted meanwhile, a move next to one in another list) is part of the game. */
async function make(st: Step, ids: number[], lists: [number, number]): Promise<void> {
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

/** One run: two fresh lists, some tasks, the live copy, more changes while it follows. */
async function run(s: {
  view: ReturnType<typeof viewOf> extends fc.Arbitrary<infer V> ? V : never
  before: Step[]
  during: Step[]
}): Promise<void> {
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
  for (const st of s.before) await make(st, ids, lists)
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
    for (const st of s.during) await make(st, ids, lists)
    const seq = await newestSeq()
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

describe('LiveTasks in every sort, with the planning filters, against a real server', () => {
  for (const sort of ['id', 'due', 'priority', 'position', 'updated'] as const) {
    it(`sort=${sort}: equals a fresh listing once caught up, through random creates, changes, moves and deletes`, async () => {
      await fc.assert(fc.asyncProperty(scenario(sort), run), { numRuns: 40, endOnFailure: true })
    }, 300_000)
  }

  it('drops a task whose priority changes out of a priority view, and takes one that changes into it', async () => {
    const list = await client.createList({ name: 'priorities' })
    const urgent = await client.createTask({ name: 'Urgent', listId: list.id, priority: 3 })
    const later = await client.createTask({ name: 'Later', listId: list.id, priority: 1 })
    const live = new LiveTasks(client, { list: list.id, priority: 3, sort: 'updated' })
    try {
      await until(
        () => live.caughtUp,
        () => 'caught up',
      )
      expect(live.tasks.map((task) => task.id)).toEqual([urgent.id])
      await client.updateTask(urgent.id, { priority: 2 })
      await until(
        () => live.tasks.length === 0,
        () => 'the task left the view',
      )
      await client.updateTask(later.id, { priority: 3 })
      await client.updateTask(urgent.id, { priority: 3 })
      await until(
        () => live.tasks.length === 2,
        () => 'both tasks in the view',
      )
      // By when they last changed (ties, in the same millisecond, by id), as the server has it.
      const seq = await newestSeq()
      await until(
        () => live.seq >= seq && live.caughtUp,
        () => 'caught up again',
      )
      expect(live.tasks).toEqual(
        await client.listTasks(undefined, { list: list.id, priority: 3, sort: 'updated' }),
      )
    } finally {
      live.close()
    }
  })

  it('moves a task in the manual order as it is moved, within its list and into another', async () => {
    const [first, second] = [
      await client.createList({ name: 'one' }),
      await client.createList({ name: 'two' }),
    ]
    const a = await client.createTask({ name: 'a', listId: first.id })
    const b = await client.createTask({ name: 'b', listId: first.id })
    const c = await client.createTask({ name: 'c', listId: second.id })
    const live = liveTasks(client, { sort: 'position', order: 'desc', limit: 2 })
    const names = () => live.tasks.map((task) => task.name).join()
    try {
      await until(
        () => live.caughtUp,
        () => 'caught up',
      )
      // Descending: the later list first, and in each list its last task first.
      expect(names()).toBe('c,b')
      await client.moveTask(c.id, { after: b.id }, { listId: first.id })
      await until(
        () => live.tasks[0]?.listId === first.id,
        () => 'c moved after b into the first list',
      )
      expect(names()).toBe('c,b')
      await client.moveTask(a.id, 'bottom')
      await until(
        () => names() === 'a,c',
        () => `a at the bottom (${names()})`,
      )
      expect(live.tasks).toEqual(await client.listTasks(2, { sort: 'position', order: 'desc' }))
    } finally {
      live.close()
    }
  })

  it('refuses q and overdue with a TypeError before any request', () => {
    let requests = 0
    const counting = createClient({
      baseUrl: server.url,
      fetch: (...args) => {
        requests++
        return fetch(...args)
      },
    })
    for (const refused of [{ q: 'words' }, { overdue: true }, { overdue: false }]) {
      expect(() => liveTasks(counting, refused as LiveTasksOptions)).toThrow(TypeError)
    }
    expect(requests).toBe(0)
  })
})

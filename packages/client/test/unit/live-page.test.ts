import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { taskOrder } from '../../src/live-order.js'
import { LivePage } from '../../src/live-page.js'
import type { Task, TaskChange, TaskStatus } from '../../src/types.js'

// A model of the server's tasks and of its change feed (live and compacted backlog, each
// filtered view exact), to check LivePage against what GET /tasks would answer.

/** The listing a LivePage follows. */
interface View {
  tag?: string
  status?: TaskStatus
  order: 'asc' | 'desc'
  limit?: number
}

/** One committed change: the task before and after it (undefined: not there). */
interface Change {
  seq: number
  id: number
  before: Task | undefined
  after: Task | undefined
}

const TIME = '2026-11-25T09:30:00.000Z'

const task = (id: number, fields: Partial<Task> = {}): Task => ({
  id,
  listId: 1,
  priority: 0,
  position: 'a0',
  createdBy: 'local',
  updatedBy: 'local',
  name: `t${id}`,
  status: 'open',
  version: 1,
  createdAt: TIME,
  updatedAt: TIME,
  ...fields,
})

const matches = (view: View, t: Task) =>
  (view.tag === undefined || t.tag === view.tag) &&
  (view.status === undefined || t.status === view.status)

/** GET /tasks with the view's query, on these tasks. */
function listing(view: View, tasks: Iterable<Task>): Task[] {
  const listed = [...tasks]
    .filter((t) => matches(view, t))
    .sort((a, b) => (view.order === 'desc' ? b.id - a.id : a.id - b.id))
  return view.limit === undefined ? listed : listed.slice(0, view.limit)
}

/** The live feed's event for the view, if the change concerns it. */
function liveEvent(view: View, { seq, id, before, after }: Change): TaskChange | undefined {
  const was = before !== undefined && matches(view, before)
  if (after !== undefined && matches(view, after)) {
    return { type: was ? 'updated' : 'created', seq, task: after }
  }
  if (was) return { type: 'deleted', seq, task: { id, version: (after ?? before).version } }
  return undefined
}

/** The compacted backlog after `from`: each task changed since once, at its latest change. */
function backlog(view: View, changes: Change[], from: number): TaskChange[] {
  const latest = new Map<number, Change>()
  for (const change of changes) if (change.seq > from) latest.set(change.id, change)
  return [...latest.values()]
    .sort((a, b) => a.seq - b.seq)
    .map(({ seq, id, before, after }) =>
      after !== undefined && matches(view, after)
        ? { type: 'updated', seq, task: after }
        : { type: 'deleted', seq, task: { id, version: (after ?? before)?.version ?? 1 } },
    )
}

type Step =
  | { kind: 'create'; tag: string | undefined; status: TaskStatus }
  | { kind: 'patch'; pick: number; tag?: string | null; status?: TaskStatus; name?: string }
  | { kind: 'delete'; pick: number }

const tags = fc.constantFrom('red', 'blue', undefined)
const statuses = fc.constantFrom<TaskStatus>('open', 'done')
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), tag: tags, status: statuses }),
  fc.record(
    {
      kind: fc.constant('patch' as const),
      pick: fc.nat(),
      tag: fc.constantFrom('red', 'blue', null),
      status: statuses,
      name: fc.constantFrom('a', 'b'),
    },
    { requiredKeys: ['kind', 'pick'] },
  ),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
)
const view: fc.Arbitrary<View> = fc.record(
  {
    tag: fc.constantFrom('red', 'blue'),
    status: statuses,
    order: fc.constantFrom('asc' as const, 'desc' as const),
    limit: fc.nat(4),
  },
  { requiredKeys: ['order'] },
)

/** Runs the steps on `start` tasks: every committed change, and the tasks after each seq. */
function run(start: number, steps: Step[]) {
  const tasks = new Map<number, Task>()
  const changes: Change[] = []
  const states = new Map<number, Map<number, Task>>()
  let seq = 0
  const commit = (id: number, after: Task | undefined) => {
    const change = { seq: ++seq, id, before: tasks.get(id), after }
    if (after) tasks.set(id, after)
    else tasks.delete(id)
    changes.push(change)
    states.set(seq, new Map(tasks))
  }
  for (let id = 1; id <= start; id++) commit(id, task(id, { tag: id % 2 ? 'red' : 'blue' }))
  for (const s of steps) {
    const ids = [...tasks.keys()]
    if (s.kind === 'create' || ids.length === 0) {
      const id = seq + 1
      const fields: { tag?: string | undefined; status?: TaskStatus } = s.kind === 'create' ? s : {}
      commit(
        id,
        task(id, { status: fields.status ?? 'open', ...(fields.tag ? { tag: fields.tag } : {}) }),
      )
      continue
    }
    const held = tasks.get(ids[s.pick % ids.length] as number) as Task
    if (s.kind === 'delete') {
      commit(held.id, undefined)
      continue
    }
    const next: Task = { ...held, name: s.name ?? held.name, status: s.status ?? held.status }
    if (s.tag === null) delete next.tag
    else if (s.tag !== undefined) next.tag = s.tag
    // A patch that changes nothing is no change: no version, no event.
    if (JSON.stringify(next) === JSON.stringify(held)) continue
    commit(held.id, { ...next, version: held.version + 1 })
  }
  return { changes, states, seq, at: (n: number) => states.get(n) ?? new Map<number, Task>() }
}

/** What LivePage promises at every moment, whatever it has applied so far. */
function checkMoment(
  page: LivePage,
  v: View,
  deletedAt: Map<number, number>,
  seen: Map<number, number>,
) {
  const ids = page.tasks.map((t) => t.id)
  expect(new Set(ids).size).toBe(ids.length)
  expect(ids).toEqual([...ids].sort((a, b) => (v.order === 'desc' ? b - a : a - b)))
  expect(page.tasks.every((t) => matches(v, t))).toBe(true)
  expect(page.tasks.length).toBeLessThanOrEqual(v.limit ?? Number.POSITIVE_INFINITY)
  for (const t of page.tasks) {
    // Not deleted at or before the seq it reflects, and never an older version than shown.
    expect(deletedAt.get(t.id) ?? Number.POSITIVE_INFINITY).toBeGreaterThan(page.seq)
    expect(t.version).toBeGreaterThanOrEqual(seen.get(t.id) ?? 0)
    seen.set(t.id, t.version)
  }
}

const deletions = (changes: Change[]) =>
  new Map(changes.filter((c) => c.after === undefined).map((c) => [c.id, c.seq]))

describe('LivePage', () => {
  it('applied to the live feed, holds the first tasks of the listing at its seq after every event, and all of them unless short', () => {
    fc.assert(
      fc.property(
        view,
        fc.nat(6),
        fc.array(step, { maxLength: 40 }),
        fc.nat(),
        fc.infiniteStream(fc.boolean()),
        (v, start, steps, cut, refills) => {
          const db = run(start, steps)
          const from = cut % (db.seq + 1)
          const page = new LivePage(v.order, v.limit)
          page.reset(listing(v, db.at(from).values()), from)
          const deletedAt = deletions(db.changes)
          const seen = new Map<number, number>()
          for (const change of db.changes.filter((c) => c.seq > from)) {
            const event = liveEvent(v, change)
            if (event === undefined || event.seq <= page.seq) continue
            page.apply(event)
            checkMoment(page, v, deletedAt, seen)
            const listed = listing(v, db.at(page.seq).values())
            expect(page.tasks).toEqual(listed.slice(0, page.tasks.length))
            // A short page is read again now or after more events, as a batch ends.
            if (page.short && refills.next().value) page.reset(listed, page.seq)
            if (!page.short) expect(page.tasks).toEqual(listed)
          }
        },
      ),
      { numRuns: 500 },
    )
  })

  it('applied to a compacted backlog, never shows a duplicate, a deleted task, one outside the view or an older version, and ends equal to the listing', () => {
    fc.assert(
      fc.property(
        view,
        fc.nat(6),
        fc.array(step, { maxLength: 40 }),
        fc.nat(),
        (v, start, steps, cut) => {
          const db = run(start, steps)
          const from = cut % (db.seq + 1)
          const page = new LivePage(v.order, v.limit)
          page.reset(listing(v, db.at(from).values()), from)
          const deletedAt = deletions(db.changes)
          const seen = new Map<number, number>()
          for (const event of backlog(v, db.changes, from)) {
            page.apply(event)
            checkMoment(page, v, deletedAt, seen)
            // A page read now reflects everything: the rest of the backlog is skipped.
            if (page.short) page.reset(listing(v, db.at(db.seq).values()), db.seq)
          }
          expect(page.tasks).toEqual(listing(v, db.at(db.seq).values()))
        },
      ),
      { numRuns: 500 },
    )
  })

  it('ignores an event it already reflects and a version older than the one it holds', () => {
    const page = new LivePage()
    page.reset([task(1, { version: 3 })], 10)
    expect(page.apply({ type: 'updated', seq: 9, task: task(1, { version: 4 }) })).toBe(false)
    expect(
      page.apply({ type: 'updated', seq: 11, task: task(1, { version: 2, name: 'old' }) }),
    ).toBe(false)
    expect(page.apply({ type: 'deleted', seq: 12, task: { id: 1, version: 2 } })).toBe(false)
    expect(page.tasks).toEqual([task(1, { version: 3 })])
    expect(page.seq).toBe(12)
    expect(page.apply({ type: 'deleted', seq: 13, task: { id: 1, version: 3 } })).toBe(true)
    expect(page.tasks).toEqual([])
  })

  it('newest first with a limit: a new task enters at the top and pushes the last one out; one that leaves makes the page short', () => {
    const page = new LivePage('desc', 2)
    page.reset([task(5), task(3)], 5)
    page.apply({ type: 'created', seq: 6, task: task(6) })
    expect(page.tasks.map((t) => t.id)).toEqual([6, 5])
    expect(page.short).toBe(false)
    // Retagged into the view below the page's edge: not known to be on the page.
    page.apply({ type: 'created', seq: 7, task: task(1) })
    expect(page.tasks.map((t) => t.id)).toEqual([6, 5])
    page.apply({ type: 'deleted', seq: 8, task: { id: 6, version: 1 } })
    expect(page.tasks.map((t) => t.id)).toEqual([5])
    expect(page.short).toBe(true)
  })

  it('oldest first with a limit: a task created beyond the last one is not on the page; within a short listing it is', () => {
    const full = new LivePage('asc', 2)
    full.reset([task(1), task(2)], 2)
    full.apply({ type: 'created', seq: 3, task: task(3) })
    expect(full.tasks.map((t) => t.id)).toEqual([1, 2])
    const room = new LivePage('asc', 3)
    room.reset([task(1), task(2)], 2)
    room.apply({ type: 'created', seq: 3, task: task(3) })
    expect(room.tasks.map((t) => t.id)).toEqual([1, 2, 3])
    room.apply({ type: 'deleted', seq: 4, task: { id: 1, version: 1 } })
    // The listing was shorter than its limit: nothing lies beyond, nothing to read again.
    expect(room.short).toBe(false)
  })

  it('by due with a limit: a task re-dated before the edge moves in and pushes the last out; one re-dated past it makes the page short', () => {
    const page = new LivePage('asc', 2, 'due')
    page.reset([task(4, { due: '2026-12-01' }), task(2, { due: '2026-12-03' })], 5)
    page.apply({ type: 'updated', seq: 6, task: task(7, { due: '2026-12-02', version: 2 }) })
    expect(page.tasks.map((t) => t.id)).toEqual([4, 7])
    expect(page.short).toBe(false)
    // Past the edge (task 7's due): not known to be on the page any more.
    page.apply({ type: 'updated', seq: 7, task: task(4, { due: '2026-12-09', version: 2 }) })
    expect(page.tasks.map((t) => t.id)).toEqual([7])
    expect(page.short).toBe(true)
  })

  it('moves a held task to its new place when its priority or position changes', () => {
    const byPriority = new LivePage('desc', undefined, 'priority')
    byPriority.reset(
      [task(1, { priority: 3 }), task(3, { priority: 1 }), task(2, { priority: 1 })],
      1,
    )
    byPriority.apply({ type: 'updated', seq: 2, task: task(2, { priority: 3, version: 2 }) })
    expect(byPriority.tasks.map((t) => t.id)).toEqual([2, 1, 3])
    const byPosition = new LivePage('asc', undefined, 'position')
    byPosition.reset([task(1, { position: 'a0' }), task(2, { position: 'a1' })], 1)
    byPosition.apply({ type: 'updated', seq: 2, task: task(2, { position: 'Zz', version: 2 }) })
    expect(byPosition.tasks.map((t) => t.id)).toEqual([2, 1])
  })
})

describe('taskOrder', () => {
  const ids = (tasks: Task[], sort: Parameters<typeof taskOrder>[0], order?: 'asc' | 'desc') =>
    [...tasks].sort(taskOrder(sort, order)).map((t) => t.id)

  it('by due: undated last both ways, a day after the moments of its UTC day, ties by id in the order', () => {
    const tasks = [
      task(1),
      task(2, { due: '2026-12-01' }),
      task(3, { due: '2026-12-01T23:59:60Z' }),
      task(4, { due: '2026-12-02T00:30:00+01:00' }),
      task(5, { due: '2026-12-01T10:00:00Z' }),
      task(6, { due: '2026-12-01T11:00:00+01:00' }),
      task(7),
      task(8, { due: '2026-12-01T10:00:00.0009Z' }),
    ]
    expect(ids(tasks, 'due')).toEqual([5, 6, 8, 4, 3, 2, 1, 7])
    expect(ids(tasks, 'due', 'desc')).toEqual([2, 3, 4, 8, 6, 5, 7, 1])
  })

  it('by position: by list, then position as bytes (digits, capitals, small letters), not as a locale would', () => {
    const tasks = [
      task(1, { listId: 2, position: 'a' }),
      task(2, { position: 'b' }),
      task(3, { position: 'B' }),
      task(4, { position: '9' }),
      task(5, { position: 'a' }),
    ]
    expect(ids(tasks, 'position')).toEqual([4, 3, 5, 2, 1])
    expect(ids(tasks, 'position', 'desc')).toEqual([1, 2, 5, 3, 4])
  })

  it('by updated, then id; by id alone without a sort', () => {
    const tasks = [
      task(3, { updatedAt: '2026-11-25T09:30:00.001Z' }),
      task(1, { updatedAt: '2026-11-25T09:30:00.002Z' }),
      task(2, { updatedAt: '2026-11-25T09:30:00.001Z' }),
    ]
    expect(ids(tasks, 'updated')).toEqual([2, 3, 1])
    expect(ids(tasks, 'updated', 'desc')).toEqual([1, 3, 2])
    expect(ids(tasks, undefined, 'desc')).toEqual([3, 2, 1])
  })
})

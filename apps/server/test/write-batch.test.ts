import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_CALLER } from '../src/domain/rights.js'
import type { Storage, TaskWrite, WriteOutcome } from '../src/storage/open-storage.js'
import { type OpenedStorage, storages } from './support/storages.js'

// The write algorithm (writeBatch, storage/write-plan.ts) through the Storage port of each
// backend: creates, changes and deletes, If-Match, and writes that see those before them in
// their batch. Keys and replays: write-batch-keys.test.ts. The clock is the test's.
const DAY = 24 * 60 * 60 * 1000
const T0 = Date.parse('2030-01-01T00:00:00Z')
const at = (ms: number) => new Date(ms).toISOString()

const create = (name: string, tag?: string): TaskWrite => ({
  caller: LOCAL_CALLER,
  kind: 'create',
  name,
  tag,
  fingerprint: '',
})
const update = (id: number, patch: object, ifMatch?: '*' | number[]): TaskWrite => ({
  caller: LOCAL_CALLER,
  kind: 'update',
  id,
  patch,
  ifMatch,
  fingerprint: '',
})
const remove = (id: number, ifMatch?: '*' | number[]): TaskWrite => ({
  caller: LOCAL_CALLER,
  kind: 'delete',
  id,
  ifMatch,
  fingerprint: '',
})

/** A written outcome, for `toEqual`. */
const written = (task: Task | undefined, seq: number, changed = true): WriteOutcome => ({
  result: 'written',
  task,
  seq,
  replayed: false,
  changed,
})

describe.each(storages)('storage.write on %s', (_, open) => {
  let opened: OpenedStorage
  let storage: Storage
  /** A batch written at `now`, keys from the day before still valid. */
  const write = (items: TaskWrite[], now = T0) => storage.write(items, now, now - DAY)
  const taskOf = (outcome: WriteOutcome | undefined) => (outcome as { task: Task }).task as Task
  /** Creates one task at `now` and returns it. */
  const createOne = async (name: string, tag?: string, now = T0) =>
    taskOf((await write([create(name, tag)], now))[0])

  beforeAll(async () => {
    opened = await open()
    storage = opened.storage
  })

  afterAll(async () => {
    await opened?.close()
  })

  it('creates each write, ids ascending and seqs consecutive in the order of the batch', async () => {
    const base = await storage.newestSeq()
    const outcomes = await write([create('tagged', 'r'), create('untagged'), create('third')])
    const first = taskOf(outcomes[0]).id
    const fields = {
      listId: 1,
      status: 'open',
      priority: 0,
      position: expect.any(String),
      version: 1,
      createdAt: at(T0),
      createdBy: 'local',
      updatedAt: at(T0),
      updatedBy: 'local',
    } as const
    expect(outcomes).toEqual([
      written({ id: first, name: 'tagged', tag: 'r', ...fields }, base + 1),
      written({ id: first + 1, name: 'untagged', ...fields }, base + 2),
      written({ id: first + 2, name: 'third', ...fields }, base + 3),
    ])
    expect(await storage.newestSeq()).toBe(base + 3)
    expect(await storage.findTask(first + 1)).toEqual({
      value: taskOf(outcomes[1]),
      seq: base + 3,
      accessSeq: expect.any(Number),
    })
  })

  it('creates a task done when its write says so', async () => {
    const [outcome] = await write([{ ...create('done already'), status: 'done' } as TaskWrite])
    expect(taskOf(outcome)).toEqual({
      id: expect.any(Number),
      listId: 1,
      name: 'done already',
      status: 'done',
      priority: 0,
      position: expect.any(String),
      completedAt: at(T0),
      version: 1,
      createdAt: at(T0),
      createdBy: 'local',
      updatedAt: at(T0),
      updatedBy: 'local',
    })
  })

  it('pairs every id of a large batch with its own task', async () => {
    const items = Array.from({ length: 500 }, (_, i) =>
      i % 2 === 0 ? create(`pair ${i}`) : create(`pair ${i}`, `t${i % 5}`),
    )
    const tasks = (await write(items)).map(taskOf)
    expect(tasks.map((task) => [task.name, task.tag])).toEqual(
      items.map((item) => [(item as { name: string }).name, (item as { tag?: string }).tag]),
    )
    const ids = tasks.map((task) => task.id)
    expect(ids).toEqual(ids.map((_, i) => (ids[0] as number) + i))
    for (const task of [tasks[0], tasks[137], tasks[499]] as Task[]) {
      expect((await storage.findTask(task.id)).value).toEqual(task)
    }
    const listed = await storage.readPage({ after: (ids[0] as number) - 1 }, 500)
    expect(listed.value).toEqual(tasks)
  })

  it('changes a task: the patched fields, one version more, updatedAt now, a new seq', async () => {
    const task = await createOne('to change', 'old')
    const later = T0 + 60_000
    const base = await storage.newestSeq()
    const outcomes = await write(
      [
        update(task.id, { name: 'renamed' }),
        update(task.id, { status: 'done', tag: null }),
        update(task.id, { tag: 'new' }),
      ],
      later,
    )
    const changed = { ...task, updatedAt: at(later) }
    expect(outcomes).toEqual([
      written({ ...changed, name: 'renamed', version: 2 }, base + 1),
      written(
        {
          ...changed,
          name: 'renamed',
          status: 'done',
          tag: undefined,
          completedAt: at(later),
          version: 3,
        },
        base + 2,
      ),
      written(
        {
          ...changed,
          name: 'renamed',
          status: 'done',
          completedAt: at(later),
          tag: 'new',
          version: 4,
        },
        base + 3,
      ),
    ])
    expect((await storage.findTask(task.id)).value).toEqual(taskOf(outcomes[2]))
    // The feed reads one change for the task: its latest, and the newest seq with it.
    const changes = await storage.changesAfter(base, 10)
    expect(changes.seq).toBe(base + 3)
    expect(changes.value).toEqual([
      {
        seq: base + 3,
        id: task.id,
        version: 4,
        listId: 1,
        task: taskOf(outcomes[2]),
        prevSeq: base + 2,
        createdSeq: expect.any(Number),
        prev: {
          tag: undefined,
          status: 'done',
          listId: 1,
          planning: { priority: 0, due: undefined },
        },
      },
    ])
  })

  it('answers a patch equal to the task with the task as it is, its latest seq, and no change', async () => {
    const task = await createOne('same', 't')
    const seq = await storage.newestSeq()
    await createOne('another task since')
    const [outcome] = await write([update(task.id, { name: 'same', tag: 't', status: 'open' })])
    expect(outcome).toEqual(written(task, seq, false))
    expect((await storage.changesAfter(seq, 10)).value).toHaveLength(1)
  })

  it('deletes a task: no task answered, a new seq, gone from reads, a tombstone in the feed', async () => {
    const task = await createOne('to delete', 'x')
    const base = await storage.newestSeq()
    const [deleted] = await write([remove(task.id)], T0 + 1)
    expect(deleted).toEqual(written(undefined, base + 1))
    expect((await storage.findTask(task.id)).value).toBeUndefined()
    expect((await storage.readPage({ after: task.id - 1 }, 10)).value).toEqual([])
    expect((await storage.changesAfter(base, 10)).value).toEqual([
      {
        seq: base + 1,
        id: task.id,
        version: 1,
        listId: 1,
        task: undefined,
        prevSeq: base,
        createdSeq: base,
        prev: { tag: 'x', status: 'open', listId: 1, planning: { priority: 0, due: undefined } },
      },
    ])
    // Deleted is final: every later write of it is not found.
    expect(await write([remove(task.id), update(task.id, { name: 'back' })])).toEqual([
      { result: 'not-found' },
      { result: 'not-found' },
    ])
    expect(await storage.newestSeq()).toBe(base + 1)
  })

  it('answers not-found for an id no task ever had, changing nothing', async () => {
    const base = await storage.newestSeq()
    expect(await write([update(9_000_000, { name: 'x' }), remove(9_000_000)])).toEqual([
      { result: 'not-found' },
      { result: 'not-found' },
    ])
    expect(await storage.newestSeq()).toBe(base)
  })

  it('checks If-Match against the current version: * or a listed version passes, another fails with the version', async () => {
    const task = await createOne('guarded')
    const base = await storage.newestSeq()
    const outcomes = await write([
      update(task.id, { name: 'v2' }, '*'),
      update(task.id, { name: 'v3' }, [1, 2]),
      update(task.id, { name: 'never' }, [1, 2]),
      remove(task.id, [2]),
      remove(task.id, [3]),
    ])
    expect(outcomes.map((outcome) => outcome.result)).toEqual([
      'written',
      'written',
      'precondition-failed',
      'precondition-failed',
      'written',
    ])
    expect(outcomes[2]).toEqual({ result: 'precondition-failed', version: 3 })
    expect(outcomes[3]).toEqual({ result: 'precondition-failed', version: 3 })
    expect(outcomes[4]).toEqual(written(undefined, base + 3))
    // A refused write changes nothing and takes no seq.
    expect(await storage.newestSeq()).toBe(base + 3)
  })

  it('lets the writes of one batch see those before them, alongside creates', async () => {
    const [a, b] = [await createOne('a'), await createOne('b')]
    const base = await storage.newestSeq()
    const outcomes = await write([
      update(a.id, { status: 'done' }),
      create('c'),
      remove(b.id, [1]),
      update(a.id, { status: 'open' }, [2]),
      update(b.id, { name: 'b again' }),
      create('d'),
    ])
    expect(
      outcomes.map((outcome) => (outcome.result === 'written' ? outcome.seq : outcome)),
    ).toEqual([base + 1, base + 2, base + 3, base + 4, { result: 'not-found' }, base + 5])
    expect(taskOf(outcomes[3])).toEqual({ ...a, version: 3 })
    const listed = (await storage.readPage({ after: a.id - 1 }, 10)).value
    expect(listed.map((task) => task.name)).toEqual(['a', 'c', 'd'])
    expect(listed[0]).toEqual(taskOf(outcomes[3]))
  })

  it('lists what it wrote in ascending id order, deleted tasks left out', async () => {
    const { value: tasks } = await storage.readPage({}, 100_000)
    const ids = tasks.map((task) => task.id)
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b))
    expect(tasks.map((task) => task.name)).not.toContain('to delete')
    expect(await storage.countTasks()).toBe(tasks.length)
  })
})

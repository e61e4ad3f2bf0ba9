import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  KeyInFlightError,
  PreconditionFailedError,
  ShuttingDownError,
  TaskNotFoundError,
  WriteQueueFullError,
} from '../src/domain/domain-errors.js'
import { LOCAL_CALLER } from '../src/domain/rights.js'
import type { Storage, TaskWrite } from '../src/storage/open-storage.js'
import { type Commit, TaskWriter, type Written } from '../src/tasks/task-writer.js'
import { aTask, deleteRaw, listAll, patchRaw, postJson } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

/** The kinds of the writes `write` was called with, one list per commit. */
function countingCommits() {
  const commits: TaskWrite['kind'][][] = []
  const wrapStorage = (storage: Storage): Storage => ({
    ...storage,
    write: (items, now, notBefore) => {
      commits.push(items.map((item) => item.kind))
      return storage.write(items, now, notBefore)
    },
  })
  return { commits, wrapStorage }
}

let server: TestServer
const counted = countingCommits()

beforeAll(async () => {
  server = await startServer({ wrapStorage: counted.wrapStorage })
})

afterAll(async () => {
  await server?.close()
})

/** A committed write as the writer answers it (the storage's outcome, as is). */
const committed = (fields: Partial<Written>) => ({
  result: 'written',
  seq: expect.any(Number),
  replayed: false,
  changed: true,
  ...fields,
})

/** A created task, as the writer answered it. */
const taskOf = (written: Written) => written.task as Task

/** Creates `count` tasks with one writer, one commit each, and returns them. */
async function createSome(writer: TaskWriter, count: number, prefix: string): Promise<Task[]> {
  const tasks: Task[] = []
  for (let i = 0; i < count; i++) {
    tasks.push(
      taskOf(
        await writer.write({
          caller: LOCAL_CALLER,
          kind: 'create',
          task: { name: `${prefix} ${i}` },
        }),
      ),
    )
  }
  return tasks
}

describe('group commit', () => {
  it('commits creates, changes and deletes that arrive together in few transactions, answering each with its own outcome', async () => {
    const writer = new TaskWriter(counted.wrapStorage(server.storage))
    const existing = await createSome(writer, 20, 'existing')
    counted.commits.length = 0
    const [creates, updates, deletes] = await Promise.all([
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          writer.write({ caller: LOCAL_CALLER, kind: 'create', task: { name: `task ${i}` } }),
        ),
      ),
      Promise.all(
        existing.slice(0, 10).map((task) =>
          writer.write({
            caller: LOCAL_CALLER,
            kind: 'update',
            id: task.id,
            patch: { status: 'done' },
          }),
        ),
      ),
      Promise.all(
        existing
          .slice(10)
          .map((task) => writer.write({ caller: LOCAL_CALLER, kind: 'delete', id: task.id })),
      ),
    ])
    await writer.close()

    expect(counted.commits.flat()).toHaveLength(40)
    expect(counted.commits.length).toBeLessThan(40)
    // Batches mix the kinds of write.
    expect(counted.commits.some((kinds) => new Set(kinds).size > 1)).toBe(true)

    expect(creates.map((written) => taskOf(written).name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `task ${i}`),
    )
    const ids = creates.map((written) => taskOf(written).id)
    expect(new Set(ids).size).toBe(20)
    expect([...ids].sort((a, b) => a - b)).toEqual(ids)
    expect(updates.map((written) => written.task)).toEqual(
      existing.slice(0, 10).map((task) => ({
        ...task,
        status: 'done',
        version: 2,
        updatedAt: expect.any(String),
        completedAt: expect.any(String),
      })),
    )
    for (const written of deletes) expect(written).toEqual(committed({ task: undefined }))
    // One change each, every seq its own.
    const seqs = [...creates, ...updates, ...deletes].map((written) => written.seq)
    expect(new Set(seqs).size).toBe(40)

    const listed = await listAll(server)
    expect(listed.filter((task) => task.name.startsWith('existing '))).toEqual(updates.map(taskOf))
    expect(listed.filter((task) => task.name.startsWith('task '))).toEqual(creates.map(taskOf))
  })

  it('applies the writes of one batch in order, each seeing those before it', async () => {
    const writer = new TaskWriter(counted.wrapStorage(server.storage))
    const [task] = (await createSome(writer, 1, 'ordered')) as [Task]
    counted.commits.length = 0
    // Sent in one turn: they wait for the same commit.
    const outcomes = await Promise.allSettled([
      writer.write({ caller: LOCAL_CALLER, kind: 'update', id: task.id, patch: { name: 'first' } }),
      writer.write({
        caller: LOCAL_CALLER,
        kind: 'update',
        id: task.id,
        patch: { tag: 'second' },
        ifMatch: [2],
      }),
      writer.write({
        caller: LOCAL_CALLER,
        kind: 'update',
        id: task.id,
        patch: { name: 'stale' },
        ifMatch: [1],
      }),
      writer.write({ caller: LOCAL_CALLER, kind: 'update', id: task.id, patch: { name: 'first' } }),
      writer.write({ caller: LOCAL_CALLER, kind: 'delete', id: task.id, ifMatch: [3] }),
      writer.write({
        caller: LOCAL_CALLER,
        kind: 'update',
        id: task.id,
        patch: { name: 'too late' },
      }),
    ])
    await writer.close()
    expect(counted.commits).toEqual([['update', 'update', 'update', 'update', 'delete', 'update']])
    const [first, second, stale, same, deleted, late] = outcomes
    const renamed = (first as PromiseFulfilledResult<Written>).value
    expect(renamed).toEqual(
      committed({ task: { ...task, name: 'first', version: 2, updatedAt: expect.any(String) } }),
    )
    const tagged = (second as PromiseFulfilledResult<Written>).value
    expect(tagged).toEqual(
      committed({
        task: { ...task, name: 'first', tag: 'second', version: 3, updatedAt: expect.any(String) },
        seq: renamed.seq + 1,
      }),
    )
    expect(stale).toEqual({ status: 'rejected', reason: expect.any(PreconditionFailedError) })
    expect((stale as PromiseRejectedResult).reason.version).toBe(3)
    // Equal to the task as the batch had it by then: nothing changes, its latest seq answers.
    expect(same).toEqual({
      status: 'fulfilled',
      value: committed({ task: tagged.task, seq: tagged.seq, changed: false }),
    })
    expect(deleted).toEqual({
      status: 'fulfilled',
      value: committed({ task: undefined, seq: tagged.seq + 1 }),
    })
    expect(late).toEqual({ status: 'rejected', reason: expect.any(TaskNotFoundError) })
    expect((await listAll(server)).map((each) => each.id)).not.toContain(task.id)
  })

  it('commits each write on its own when GROUP_COMMIT is off', async () => {
    const off = countingCommits()
    const single = await startServer({
      settings: { groupCommit: false },
      wrapStorage: off.wrapStorage,
    })
    try {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => postJson(single, { name: `alone ${i}` })),
      )
      expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201))
      const [a, b] = (await Promise.all(responses.map((r) => r.json()))) as [Task, Task]
      expect((await patchRaw(single, a.id, { status: 'done' })).status).toBe(200)
      expect((await deleteRaw(single, b.id)).status).toBe(204)
      expect(off.commits).toEqual([...Array(10).fill(['create']), ['update'], ['delete']])
    } finally {
      await single.close()
    }
  })
})

describe('the write queue', () => {
  it('refuses writes beyond maxQueue with WriteQueueFullError, and serves the queued ones', async () => {
    const writer = new TaskWriter(server.storage, { maxQueue: 2 })
    const [target] = (await createSome(writer, 1, 'queued')) as [Task]
    try {
      const first = writer.write({ caller: LOCAL_CALLER, kind: 'create', task: { name: 'one' } })
      const second = writer.write({
        caller: LOCAL_CALLER,
        kind: 'update',
        id: target.id,
        patch: { name: 'two' },
      })
      await expect(
        writer.write({ caller: LOCAL_CALLER, kind: 'create', task: { name: 'three' } }),
      ).rejects.toBeInstanceOf(WriteQueueFullError)
      await expect(
        writer.write({ caller: LOCAL_CALLER, kind: 'delete', id: target.id }),
      ).rejects.toBeInstanceOf(WriteQueueFullError)
      const done = await Promise.all([first, second])
      expect(done.map((written) => taskOf(written).name)).toEqual(['one', 'two'])
      // With the queue drained, a write is accepted again.
      expect(
        taskOf(await writer.write({ caller: LOCAL_CALLER, kind: 'create', task: { name: 'four' } }))
          .name,
      ).toBe('four')
    } finally {
      await writer.close()
    }
    const names = (await listAll(server)).map((task) => task.name)
    expect(names).toEqual(expect.arrayContaining(['one', 'two', 'four']))
    expect(names).not.toContain('three')
  })

  it('refuses a write whose Idempotency-Key is still waiting for its commit with KeyInFlightError', async () => {
    const writer = new TaskWriter(server.storage)
    try {
      const first = writer.write({
        caller: LOCAL_CALLER,
        kind: 'create',
        task: { name: 'keyed' },
        key: 'in-flight',
      })
      await expect(
        writer.write({
          caller: LOCAL_CALLER,
          kind: 'create',
          task: { name: 'keyed' },
          key: 'in-flight',
        }),
      ).rejects.toBeInstanceOf(KeyInFlightError)
      expect((await first).replayed).toBe(false)
      // Once answered, the key replays.
      expect(
        await writer.write({
          caller: LOCAL_CALLER,
          kind: 'create',
          task: { name: 'keyed' },
          key: 'in-flight',
        }),
      ).toEqual({ ...(await first), replayed: true })
    } finally {
      await writer.close()
    }
  })
})

describe('a write after the writer has closed', () => {
  // ShuttingDownError is a 503 with Retry-After: 1 and Connection: close (errors.test.ts).
  it('is refused with ShuttingDownError, and changes nothing', async () => {
    const open = new TaskWriter(server.storage)
    const [task] = (await createSome(open, 1, 'kept')) as [Task]
    await open.close()
    const writer = new TaskWriter(server.storage)
    await writer.close()
    await expect(
      writer.write({ caller: LOCAL_CALLER, kind: 'create', task: { name: 'late' } }),
    ).rejects.toBeInstanceOf(ShuttingDownError)
    await expect(
      writer.write({ caller: LOCAL_CALLER, kind: 'update', id: task.id, patch: { name: 'late' } }),
    ).rejects.toBeInstanceOf(ShuttingDownError)
    await expect(
      writer.write({ caller: LOCAL_CALLER, kind: 'delete', id: task.id }),
    ).rejects.toBeInstanceOf(ShuttingDownError)
    const listed = await listAll(server)
    expect(listed.map((each) => each.name)).not.toContain('late')
    expect(listed.find((each) => each.id === task.id)).toEqual(task)
  })
})

describe('the writer observer', () => {
  it("reports each commit's size, duration and created, updated and deleted tasks, and the queue's depth", async () => {
    const commits: Commit[] = []
    const depths: number[] = []
    const writer = new TaskWriter(server.storage, {
      observer: { onCommit: (commit) => commits.push(commit), onQueueDepth: (d) => depths.push(d) },
    })
    const created = await writer.write({
      caller: LOCAL_CALLER,
      kind: 'create',
      task: { name: 'observed' },
      key: 'observed-key',
    })
    const id = taskOf(created).id
    const [other] = (await createSome(writer, 1, 'to delete')) as [Task]
    commits.length = 0
    depths.length = 0
    const outcomes = await Promise.allSettled([
      writer.write({ caller: LOCAL_CALLER, kind: 'create', task: { name: 'again' } }),
      writer.write({
        caller: LOCAL_CALLER,
        kind: 'create',
        task: { name: 'observed' },
        key: 'observed-key',
      }), // replay
      writer.write({ caller: LOCAL_CALLER, kind: 'update', id, patch: { status: 'done' } }),
      writer.write({ caller: LOCAL_CALLER, kind: 'update', id, patch: { status: 'done' } }), // changes nothing
      writer.write({
        caller: LOCAL_CALLER,
        kind: 'update',
        id,
        patch: { name: 'x' },
        ifMatch: [1],
      }), // 412
      writer.write({ caller: LOCAL_CALLER, kind: 'delete', id: other.id }),
      writer.write({ caller: LOCAL_CALLER, kind: 'delete', id: other.id }), // 404
    ])
    await writer.close()
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
    ])
    expect(commits.map(({ seconds: _, ...counts }) => counts)).toEqual([
      { size: 7, created: 1, updated: 1, deleted: 1 },
    ])
    expect(commits[0]?.seconds).toBeGreaterThan(0)
    expect(depths).toEqual([1, 2, 3, 4, 5, 6, 7, 0])
  })

  it('counts a create alone in its commit', async () => {
    const commits: Commit[] = []
    const writer = new TaskWriter(server.storage, {
      observer: { onCommit: (commit) => commits.push(commit) },
    })
    expect(
      taskOf(await writer.write({ caller: LOCAL_CALLER, kind: 'create', task: { name: 'one' } })),
    ).toEqual(aTask({ name: 'one' }))
    await writer.close()
    expect(commits.map(({ seconds: _, ...counts }) => counts)).toEqual([
      { size: 1, created: 1, updated: 0, deleted: 0 },
    ])
  })
  it('answers a committed write as committed when the observer throws, and logs the failure', async () => {
    const logged: unknown[] = []
    const log = { debug() {}, info() {}, warn() {}, error: (entry: unknown) => logged.push(entry) }
    const writer = new TaskWriter(server.storage, {
      observer: {
        onCommit() {
          throw new Error('the metrics broke')
        },
      },
      log,
    })
    const written = await writer.write({
      caller: LOCAL_CALLER,
      kind: 'create',
      task: { name: 'observed badly' },
    })
    await writer.close()
    expect(taskOf(written)).toEqual(aTask({ name: 'observed badly' }))
    const { value: stored } = await server.storage.findTask(taskOf(written).id)
    expect(stored).toEqual(taskOf(written))
    expect(logged).toHaveLength(1)
  })
})

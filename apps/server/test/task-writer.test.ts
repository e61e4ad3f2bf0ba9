import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ShuttingDownError, WriteQueueFullError } from '../src/errors.js'
import type { Storage } from '../src/storage/index.js'
import { type Commit, createTaskWriter } from '../src/tasks/writer.js'
import { listAll, postJson } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

/** The sizes of the batches `writeTasks` was called with, one per commit. */
function countingCommits() {
  const commits: number[] = []
  const wrapStorage = (storage: Storage): Storage => ({
    ...storage,
    writeTasks: (items, now, notBefore) => {
      commits.push(items.length)
      return storage.writeTasks(items, now, notBefore)
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

describe('group commit', () => {
  it('commits creates that arrive together in one transaction, answering each with its own task', async () => {
    const writer = createTaskWriter(counted.wrapStorage(server.storage))
    counted.commits.length = 0
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => writer.create({ name: `task ${i}` })),
    )
    await writer.close()
    expect(counted.commits.reduce((a, b) => a + b, 0)).toBe(40)
    expect(counted.commits.length).toBeLessThan(40)
    expect(created.map((c) => c.task.name)).toEqual(
      Array.from({ length: 40 }, (_, i) => `task ${i}`),
    )
    const ids = created.map((c) => c.task.id)
    expect(new Set(ids).size).toBe(40)
    expect([...ids].sort((a, b) => a - b)).toEqual(ids)
  })

  it('commits each create on its own when GROUP_COMMIT is off', async () => {
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
      expect(off.commits).toEqual(Array(10).fill(1))
    } finally {
      await single.close()
    }
  })
})

describe('the write queue', () => {
  it('refuses creates beyond maxQueue with WriteQueueFullError, and serves the queued ones', async () => {
    const writer = createTaskWriter(server.storage, { maxQueue: 2 })
    try {
      const first = writer.create({ name: 'one' })
      const second = writer.create({ name: 'two' })
      await expect(writer.create({ name: 'three' })).rejects.toBeInstanceOf(WriteQueueFullError)
      const done = await Promise.all([first, second])
      expect(done.map(({ task }) => task.name)).toEqual(['one', 'two'])
      expect(done[1]?.task.id).toBeGreaterThan(done[0]?.task.id ?? Number.POSITIVE_INFINITY)
      // With the queue drained, a create is accepted again.
      expect((await writer.create({ name: 'four' })).task.name).toBe('four')
    } finally {
      await writer.close()
    }
    const names = (await listAll(server)).map((task) => task.name)
    expect(names).toEqual(expect.arrayContaining(['one', 'two', 'four']))
    expect(names).not.toContain('three')
  })
})

describe('a create after the writer has closed', () => {
  // ShuttingDownError is a 503 with Retry-After: 1 and Connection: close (errors.test.ts).
  it('is refused with ShuttingDownError, and stores nothing', async () => {
    const writer = createTaskWriter(server.storage)
    await writer.close()
    await expect(writer.create({ name: 'late' })).rejects.toBeInstanceOf(ShuttingDownError)
    expect((await listAll(server)).map((task) => task.name)).not.toContain('late')
  })
})

describe('the writer observer', () => {
  it("reports each commit's size, duration and new tasks, and the queue's depth", async () => {
    const commits: Commit[] = []
    const depths: number[] = []
    const writer = createTaskWriter(server.storage, {
      observer: { onCommit: (commit) => commits.push(commit), onQueueDepth: (d) => depths.push(d) },
    })
    await writer.create({ name: 'observed' }, 'observed-key')
    await Promise.all([
      writer.create({ name: 'observed' }, 'observed-key-2'),
      writer.create({ name: 'again' }),
      writer.create({ name: 'observed' }, 'observed-key'),
    ])
    await writer.close()
    expect(commits.map(({ size, created }) => ({ size, created }))).toEqual([
      { size: 1, created: 1 },
      { size: 3, created: 2 },
    ])
    for (const commit of commits) expect(commit.seconds).toBeGreaterThan(0)
    expect(depths).toEqual([1, 0, 1, 2, 3, 0])
  })
})

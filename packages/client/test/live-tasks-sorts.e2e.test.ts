// LiveTasks over every sort and the planning filters, against a real server (SQLite): after
// random creates, changes, moves and deletes, a caught-up copy equals a fresh listTasks with
// the same options; a task changed out of a priority view leaves it; q and overdue are
// refused. On PostgreSQL: live-tasks-sorts.slow.test.ts.
import { startServer } from '@tasklane/testing/server'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, type TasklaneClient } from '../src/index.js'
import { LiveTasks, type LiveTasksOptions, liveTasks } from '../src/live.js'
import { checkSorted, newestSeq, sortScenario, until } from './live-tasks-sorts-check.js'

let server: Awaited<ReturnType<typeof startServer>>
let client: TasklaneClient

beforeAll(async () => {
  server = await startServer()
  client = createClient({ baseUrl: server.url, retry: { initialDelayMs: 20, maxDelayMs: 200 } })
})
afterAll(() => server.close())

describe('LiveTasks in every sort, with the planning filters, against a real server', () => {
  for (const sort of ['id', 'due', 'priority', 'position', 'updated'] as const) {
    it(`sort=${sort}: equals a fresh listing once caught up, through random creates, changes, moves and deletes`, async () => {
      await fc.assert(
        fc.asyncProperty(sortScenario(sort), (s) => checkSorted(server.url, s)),
        { numRuns: 40, endOnFailure: true },
      )
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
      const seq = await newestSeq(server.url)
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

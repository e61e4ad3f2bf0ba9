import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Subscription, subscribe } from './support/events.js'
import { createTask, type Reachable } from './support/http.js'
import { killAll, type ServerProcess, startServerProcess } from './support/processes.js'
import { startServer, type TestServer } from './support/server.js'
import {
  adminQuery,
  createTestDatabase,
  onPostgres,
  type TestDatabase,
} from './support/test-database.js'

// The change feed across server instances sharing one PostgreSQL database: commits reach
// every instance's subscribers through LISTEN/NOTIFY, with a periodic check beneath it.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

afterAll(killAll)

/** The feed's promise: a task reaches subscribers on every instance within 1 s. */
const WITHIN_MS = 1_000

describe.runIf(onPostgres)('GET /tasks/events on three server processes', () => {
  let testDatabase: TestDatabase
  let instances: ServerProcess[]
  const feeds: Subscription[] = []

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    instances = await Promise.all(
      [1, 2, 3].map(() =>
        startServerProcess({ DATABASE_URL: testDatabase.url, DATABASE_POOL_SIZE: '4' }),
      ),
    )
  }, 30_000)

  afterAll(async () => {
    for (const feed of feeds) feed.close()
    await Promise.all((instances ?? []).map((instance) => instance.stop()))
    await testDatabase?.drop()
  })

  it('sends every subscriber every task exactly once, in order, within 1 s of its 201 wherever it was created', async () => {
    feeds.push(...(await Promise.all(instances.map((instance) => subscribe(instance)))))
    const acknowledged: { task: Task; at: number; on: number }[] = []
    await Promise.all(
      instances.flatMap((instance, n) =>
        [0, 1, 2, 3].map(async (w) => {
          for (let i = 0; i < 25; i++) {
            const task = await createTask(instance, { name: `instance ${n} writer ${w} task ${i}` })
            acknowledged.push({ task, at: Date.now(), on: n })
            // Not all at once: the feed must also carry tasks that trickle in.
            if (i % 5 === 0) await sleep(20)
          }
        }),
      ),
    )
    const all = acknowledged.map((entry) => entry.task).sort((a, b) => a.id - b.id)
    expect(all).toHaveLength(300)
    for (const [n, feed] of feeds.entries()) {
      expect(await feed.untilTasks(all.length)).toEqual(all)
      const arrived = new Map(feed.tasks.map((task, i) => [task.id, feed.arrivals[i] as number]))
      const late = acknowledged
        .filter(({ task, at }) => (arrived.get(task.id) as number) - at > WITHIN_MS)
        .map(({ task, on }) => `task ${task.id} from instance ${on} at instance ${n}`)
      expect(late).toEqual([])
    }
  }, 60_000)
})

/** The server's listening connection, as pg_stat_activity shows it. */
async function listeners(channel: string): Promise<number[]> {
  const rows = await adminQuery<{ pid: number }>(
    `select pid from pg_stat_activity where application_name = 'tasklane-listen' and query ilike $1`,
    [`%${channel}%`],
  )
  return rows.map((row) => row.pid)
}

describe.runIf(onPostgres)('GET /tasks/events when the listening connection drops', () => {
  let testDatabase: TestDatabase
  /** A with the subscriber, B the writer: only a notification tells A of B's commits. */
  let a: TestServer
  let b: TestServer
  let channel: string

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    await testDatabase.migrate()
    // The periodic check out of the way: what reaches A comes through LISTEN, on a direct
    // connection (through a pooler, DATABASE_DIRECT_URL: a LISTEN needs a session).
    const noCheck = {
      ...testDatabase,
      config: { ...testDatabase.config, directUrl: testDatabase.directUrl, commitCheckMs: 600_000 },
    } as TestDatabase
    a = await startServer({ testDatabase: noCheck })
    b = await startServer({ testDatabase: noCheck })
    const [row] = await adminQuery<{ oid: number }>(
      `select '${testDatabase.schema}.tasks'::regclass::oid::int as oid`,
    )
    channel = `tasklane_tasks_${row?.oid}`
  }, 30_000)

  afterAll(async () => {
    await a?.close()
    await b?.close()
    await testDatabase?.drop()
  })

  /** Creates a task on `on` and resolves once `feed` has it, failing after 1 s. */
  async function delivered(on: Reachable, feed: Subscription, name: string): Promise<Task> {
    // Counted before the create: the event may reach the feed before the 201 reaches us.
    const held = feed.tasks.length
    const task = await createTask(on, { name })
    await feed.untilTasks(held + 1, WITHIN_MS)
    expect(feed.tasks.at(-1)).toEqual(task)
    return task
  }

  it('listens again after pg_terminate_backend, and loses nothing committed meanwhile', async () => {
    const feed = await subscribe(a)
    try {
      await delivered(b, feed, 'before the cut')
      const [pid] = await listeners(channel)
      expect(pid).toBeDefined()

      await adminQuery('select pg_terminate_backend($1)', [pid])
      // Committed while A has no listening connection: no notification reaches it.
      const missed = await createTask(b, { name: 'while nobody listened' })
      let again = await listeners(channel)
      for (let i = 0; (again.length === 0 || again.includes(pid as number)) && i < 100; i++) {
        await sleep(50)
        again = await listeners(channel)
      }
      expect(again).toHaveLength(1)
      expect(again).not.toContain(pid)
      // Read when the connection came back, not left for the periodic check.
      await feed.untilTasks(2, 5_000)
      expect(feed.tasks[1]).toEqual(missed)

      await delivered(b, feed, 'after the cut')
      expect(feed.tasks.map((task) => task.name)).toEqual([
        'before the cut',
        'while nobody listened',
        'after the cut',
      ])
    } finally {
      feed.close()
    }
  }, 30_000)
})

describe.runIf(onPostgres)('GET /tasks/events when a notification is lost', () => {
  it('still sends the task: the newest seq is checked periodically', async () => {
    const testDatabase = await createTestDatabase()
    await testDatabase.migrate()
    const server = await startServer({
      testDatabase: {
        ...testDatabase,
        config: { ...testDatabase.config, commitCheckMs: 200 },
      } as TestDatabase,
    })
    const feed = await subscribe(server)
    try {
      // Inserted behind the server's back: no pg_notify, as if the notification were lost.
      await testDatabase.insertMany(2, (i) => ({ name: `silent ${i + 1}` }))
      expect((await feed.untilTasks(2, 5_000)).map((task) => task.name)).toEqual([
        'silent 1',
        'silent 2',
      ])
    } finally {
      feed.close()
      await server.close()
      await testDatabase.drop()
    }
  })
})

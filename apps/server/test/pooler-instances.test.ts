import type { Task } from '@tasklane/contract'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { subscribe } from './support/events.js'
import { createTask, deleteRaw, get, patchRaw, postJson, seqOf } from './support/http.js'
import { killAll, type ServerProcess, startServerProcess } from './support/processes.js'
import { Replica } from './support/replica.js'
import {
  adminQuery,
  createTestDatabase,
  type TestDatabase,
  throughPooler,
} from './support/test-database.js'

// Three server processes through the run's PgBouncer in transaction mode, as stateless
// instances behind a pooler: creates under concurrency, changes and deletes
// across instances, the change feed, and nothing left behind on PostgreSQL's connections.

afterAll(killAll)

/** The feed's promise: a change reaches subscribers on every instance within 1 s. */
const WITHIN_MS = 1_000

/** Three instances on `testDatabase` with these settings besides DATABASE_URL. */
function threeInstances(testDatabase: TestDatabase, env: NodeJS.ProcessEnv = {}) {
  return Promise.all(
    [1, 2, 3].map(() =>
      startServerProcess({ DATABASE_URL: testDatabase.url, DATABASE_POOL_SIZE: '4', ...env }),
    ),
  )
}

/** The server connections of `role` on PostgreSQL, by application_name. */
async function connectionsOf(role: string): Promise<string[]> {
  const rows = await adminQuery<{ name: string }>(
    'select application_name as name from pg_stat_activity where usename = $1 order by 1',
    [role],
  )
  return rows.map((row) => row.name)
}

/** Creates, renames, completions and deletes on every instance at once, each as answered. */
async function changeEverywhere(instances: ServerProcess[], rounds: number): Promise<void> {
  const at = (i: number) => instances[i % instances.length] as ServerProcess
  await Promise.all(
    instances.map(async (_, n) => {
      for (let i = 0; i < rounds; i++) {
        const task = await createTask(at(n), { name: `instance ${n} task ${i}` })
        // On the next instance: a change must find what another one created.
        const renamed = await patchRaw(at(n + 1), task.id, { name: `renamed ${n} ${i}` })
        expect(renamed.status).toBe(200)
        await renamed.body?.cancel()
        const done = await patchRaw(at(n + 2), task.id, { status: 'done' })
        expect(done.status).toBe(200)
        await done.body?.cancel()
        if (i % 3 === 0) expect((await deleteRaw(at(n + 1), task.id)).status).toBe(204)
      }
    }),
  )
}

/**
 * Lists on one instance, follows the feed of every instance from the listing's seq while
 * all three change tasks, and checks that each feed, applied to the listing, gives exactly
 * a fresh listing: nothing missed, nothing repeated, whoever made the change.
 */
async function expectFeedsFollow(instances: ServerProcess[]): Promise<void> {
  const at = (i: number) => instances[i] as ServerProcess
  const listed = await get(at(0), '/tasks')
  const seq = seqOf(listed)
  const start = (await listed.json()) as Task[]
  const feeds = await Promise.all(
    instances.map((instance) => subscribe(instance, `/tasks/events?after=${seq}`)),
  )
  try {
    await changeEverywhere(instances, 6)
    const fresh = await get(at(1), '/tasks')
    const newest = seqOf(fresh)
    const tasks = await fresh.json()
    for (const feed of feeds) {
      await feed.untilEvents(1, 5_000)
      for (let waited = 0; feed.events.at(-1)?.seq !== newest; waited += 20) {
        if (waited > 10_000) throw new Error(`a feed stopped at ${feed.events.at(-1)?.seq}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      const replica = new Replica(start, seq)
      for (const event of feed.events) replica.apply(event)
      expect(replica.list()).toEqual(tasks)
    }
  } finally {
    for (const feed of feeds) feed.close()
  }
}

/** A task created on each instance in turn reaches every instance's subscriber within 1 s. */
async function expectWithinASecond(instances: ServerProcess[]): Promise<void> {
  const feeds = await Promise.all(instances.map((instance) => subscribe(instance)))
  try {
    for (let i = 0; i < 9; i++) {
      const task = await createTask(instances[i % 3] as ServerProcess, { name: `timed ${i}` })
      const answered = Date.now()
      for (const feed of feeds) {
        await feed.untilTasks(i + 1, 5_000)
        expect(feed.tasks[i]).toEqual(task)
        expect((feed.arrivals[i] as number) - answered).toBeLessThanOrEqual(WITHIN_MS)
      }
    }
  } finally {
    for (const feed of feeds) feed.close()
  }
}

describe.runIf(throughPooler)(
  'three instances through PgBouncer, without DATABASE_DIRECT_URL',
  () => {
    let testDatabase: TestDatabase
    let instances: ServerProcess[]

    beforeAll(async () => {
      testDatabase = await createTestDatabase()
      instances = await threeInstances(testDatabase)
    }, 60_000)

    afterAll(async () => {
      await Promise.all((instances ?? []).map((instance) => instance.stop()))
      await testDatabase?.drop()
    })

    it('migrated the schema once through the pooler, started together on it empty', async () => {
      const rows = await adminQuery<{ name: string }>(
        `select name from ${testDatabase.schema}.kysely_migration order by name`,
      )
      expect(rows.map((row) => row.name)).toEqual([
        '0001-create-tasks',
        '0002-create-idempotency-keys',
        '0003-limit-task-ids',
        '0004-create-write-probe',
        '0005-write-function',
        '0006-task-lifecycle',
        '0007-lists-and-people',
        '0008-planning',
        '0009-history-and-webhooks',
        '0010-feed-planning-views',
        '0011-ids-checked-on-insert',
        '0012-search-index-on-tasks',
      ])
    })

    it('answers 201 to every one of 16 concurrent creates on each instance, round after round', async () => {
      const ids: number[] = []
      for (let round = 0; round < 8; round++) {
        const responses = await Promise.all(
          instances.flatMap((instance) =>
            Array.from({ length: 16 }, (_, i) => postJson(instance, { name: `r${round} c${i}` })),
          ),
        )
        const statuses = responses.map((response) => response.status)
        expect(statuses.filter((status) => status !== 201)).toEqual([])
        for (const response of responses) ids.push(((await response.json()) as Task).id)
      }
      expect(new Set(ids).size).toBe(ids.length)
      const listed = (await (await get(instances[1] as ServerProcess, '/tasks')).json()) as Task[]
      expect(listed.map((task) => task.id)).toEqual(expect.arrayContaining(ids))
    })

    it('follows every change, whichever instance made it, on every instance: by polling', async () => {
      await expectFeedsFollow(instances)
      // Nothing holds a session: no LISTEN connection on PostgreSQL.
      expect(await connectionsOf(testDatabase.schema as string)).not.toContain('tasklane-listen')
    })

    it('sends a task created on one instance to subscribers of every instance within 1 s', () =>
      expectWithinASecond(instances))

    it('leaves nothing on the server connections it used: no prepared statement, setting or lock', async () => {
      // As many transactions at once as PgBouncer has server connections for the role: each
      // runs on one of its own, so every connection the instances used is looked at.
      const clients = Array.from(
        { length: 10 },
        () => new pg.Client({ connectionString: testDatabase.url }),
      )
      try {
        await Promise.all(clients.map((client) => client.connect()))
        const seen = await Promise.all(
          clients.map(async (client) => {
            await client.query('begin')
            const { rows } = await client.query<Record<string, unknown>>(
              `select (select count(*)::int from pg_prepared_statements) as prepared,
              current_setting('statement_timeout') as "statementTimeout",
              current_setting('lock_timeout') as "lockTimeout",
              (select count(*)::int from pg_locks where pid = pg_backend_pid()
                and locktype = 'advisory') as "advisoryLocks"`,
            )
            return rows[0]
          }),
        )
        for (const connection of seen) {
          expect(connection).toEqual({
            prepared: 0,
            statementTimeout: '0',
            lockTimeout: '0',
            advisoryLocks: 0,
          })
        }
      } finally {
        await Promise.all(clients.map((client) => client.end().catch(() => {})))
      }
    })
  },
)

describe.runIf(throughPooler)('three instances through PgBouncer, with DATABASE_DIRECT_URL', () => {
  let testDatabase: TestDatabase
  let instances: ServerProcess[]

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    // Started together on an empty schema: they race to migrate, on the direct URL.
    instances = await threeInstances(testDatabase, {
      DATABASE_DIRECT_URL: testDatabase.directUrl,
    })
  }, 60_000)

  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.stop()))
    await testDatabase?.drop()
  })

  it('migrated once, and LISTENs on a direct connection of each instance', async () => {
    const [migrations] = await adminQuery<{ count: number }>(
      `select count(*)::int as count from ${testDatabase.schema}.kysely_migration`,
    )
    expect(migrations?.count).toBe(12)
    const feeds = await Promise.all(instances.map((instance) => subscribe(instance)))
    try {
      await createTask(instances[0] as ServerProcess, { name: 'heard' })
      for (const feed of feeds) await feed.untilTasks(1, 5_000)
      const listening = (await connectionsOf(testDatabase.schema as string)).filter(
        (name) => name === 'tasklane-listen',
      )
      expect(listening).toHaveLength(3)
    } finally {
      for (const feed of feeds) feed.close()
    }
  })

  it('follows every change, whichever instance made it, on every instance', () =>
    expectFeedsFollow(instances))

  it('sends a task created on one instance to subscribers of every instance within 1 s', () =>
    expectWithinASecond(instances))
})

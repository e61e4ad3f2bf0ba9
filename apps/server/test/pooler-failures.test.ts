import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { isDatabaseUnavailable } from '../src/storage/unavailable.js'
import { expectError, get, postJson } from './support/http.js'
import { startPgBouncer, stopAllPgBouncers, type TestPgBouncer } from './support/pgbouncer.js'
import { startServer, type TestServer } from './support/server.js'
import {
  adminQuery,
  createTestDatabase,
  type TestDatabase,
  throughPooler,
} from './support/test-database.js'

// What a pooler does wrong, against real PgBouncers of this file's own in transaction mode,
// each set up to fail one way: every request that needs the database answers 503 with
// Retry-After (the pooler may come back), never 500, and the server serves again once the
// pooler does, without a restart.

const UNAVAILABLE = 'The database is not reachable; retry the request shortly.'

/** The pooler's name for the test database: its server logins are as the test's role. */
const ALIAS = 'tasks'

let testDatabase: TestDatabase
/** A task that exists, to read, change and delete. */
let id: number

beforeAll(async () => {
  if (!throughPooler) return
  testDatabase = await createTestDatabase()
  await testDatabase.migrate()
  const server = await startServer({ testDatabase })
  try {
    const created = await postJson(server, { name: 'before the pooler fails' })
    id = ((await created.json()) as { id: number }).id
  } finally {
    await server.close()
  }
}, 30_000)

afterAll(async () => {
  await stopAllPgBouncers()
  await testDatabase?.drop()
})

/**
 * A PgBouncer with `settings` whose database ALIAS logs in to PostgreSQL as the test's role
 * (so its tasks are in the role's schema) whoever the client is: the test's own clients
 * connect as the superuser to fill its slots or hold its server connections.
 */
function pgbouncerFor(settings: Record<string, string | number>): Promise<TestPgBouncer> {
  const target = new URL(testDatabase.directUrl as string)
  const server = `host=${target.hostname} port=${target.port} dbname=${target.pathname.slice(1)}`
  return startPgBouncer(settings, { [ALIAS]: `${server} user=${testDatabase.schema}` })
}

/** A server whose DATABASE_URL goes through `pgbouncer`, its waits bounded at 1 s. */
function serverThrough(pgbouncer: TestPgBouncer): Promise<TestServer> {
  const config = testDatabase.config
  if (config.kind !== 'postgres') throw new Error('PostgreSQL only')
  return startServer({
    testDatabase: {
      ...testDatabase,
      config: { ...config, url: pgbouncer.url('postgres', ALIAS), timeoutMs: 1_000 },
    },
  })
}

/** A client of `pgbouncer`'s ALIAS, connected. */
async function clientOf(pgbouncer: TestPgBouncer): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: pgbouncer.url('postgres', ALIAS) })
  client.on('error', () => {})
  await client.connect()
  return client
}

/** One of each request that needs the database: every write, every read, the feed, readiness. */
function everyRequest(server: TestServer): Promise<Response>[] {
  const json = { 'content-type': 'application/json' }
  return [
    postJson(server, { name: 'while the pooler fails' }),
    fetch(`${server.url}/tasks/${id}`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ status: 'done' }),
    }),
    fetch(`${server.url}/tasks/${id + 1_000_000}`, { method: 'DELETE' }),
    get(server, `/tasks/${id}`),
    get(server, '/tasks?limit=5'),
    get(server, '/tasks'),
    get(server, '/tasks/events'),
    get(server, '/health/ready'),
  ]
}

/** Every request answers 503: the Error body with Retry-After, or (readiness) just 503. */
async function expectUnavailable(server: TestServer): Promise<void> {
  const responses = await Promise.all(everyRequest(server))
  const ready = responses.pop() as Response
  expect(ready.status).toBe(503)
  await ready.body?.cancel()
  for (const response of responses) {
    expect(response.headers.get('retry-after'), response.url).toBe('1')
    await expectError(response, 503, UNAVAILABLE)
  }
}

/**
 * Every request succeeds again, retrying while the server's pool reconnects: up to 20 s,
 * past the 10 s after which PostgreSQL ends a transaction left idle (the server's
 * idle_in_transaction_session_timeout), the longest a write cut off mid-transaction can
 * hold the write lock and, with it, the pool's connections. Once in CI, all requests
 * still answered 503 10 s after PgBouncer's RESUME.
 */
async function expectServing(server: TestServer): Promise<void> {
  let statuses: number[] = []
  for (let i = 0; i < 80; i++) {
    const responses = await Promise.all(everyRequest(server))
    statuses = responses.map((response) => response.status)
    for (const response of responses) await response.body?.cancel()
    expect(statuses).not.toContain(500)
    if (statuses.every((status) => status < 500)) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  expect(statuses).toEqual([201, 200, 404, 200, 200, 200, 200, 200])
}

// Each case starts a PgBouncer and a server and waits out a timeout or two: more than the
// default 5 s on a loaded machine.
describe.runIf(throughPooler)(
  'PgBouncer fails; the server answers 503, never 500',
  { timeout: 30_000 },
  () => {
    let server: TestServer | undefined

    afterEach(async () => {
      await server?.close()
      server = undefined
      await stopAllPgBouncers()
    })

    it.each([
      ['restarts', 'SIGTERM'],
      ['crashes', 'SIGKILL'],
    ] as const)('while it %s (%s), and serves again once it is back', async (_, signal) => {
      const pgbouncer = await pgbouncerFor({})
      server = await serverThrough(pgbouncer)
      await expectServing(server)
      await pgbouncer.stop(signal)
      await expectUnavailable(server)
      await pgbouncer.start()
      await expectServing(server)
    })

    it('while its client slots are full (max_client_conn), and once one frees', async () => {
      const pgbouncer = await pgbouncerFor({ max_client_conn: 20 })
      server = await serverThrough(pgbouncer)
      await expectServing(server)
      // Drop the server's connections (a restart: every client connection goes), then take
      // every slot before the server opens new ones.
      await pgbouncer.stop()
      await pgbouncer.start()
      const held: pg.Client[] = []
      try {
        for (;;) {
          const client = await clientOf(pgbouncer).catch((error: Error) => error)
          if (client instanceof Error) {
            expect(client.message).toBe('no more connections allowed (max_client_conn)')
            break
          }
          held.push(client)
        }
        await expectUnavailable(server)
      } finally {
        await Promise.all(held.map((client) => client.end().catch(() => {})))
      }
      await expectServing(server)
    })

    it('when no server connection frees up in time (query_wait_timeout)', async () => {
      const pgbouncer = await pgbouncerFor({ default_pool_size: 1, query_wait_timeout: 1 })
      server = await serverThrough(pgbouncer)
      await expectServing(server)
      // Its only server connection, held by an open transaction.
      const holder = await clientOf(pgbouncer)
      await holder.query('begin')
      await holder.query('select 1')
      try {
        await expectUnavailable(server)
      } finally {
        await holder.query('rollback')
        await holder.end()
      }
      expect(pgbouncer.log()).toContain('query_wait_timeout')
      await expectServing(server)
    })

    it('while its logins to PostgreSQL fail, and for server_login_retry after', async () => {
      const pgbouncer = await pgbouncerFor({ server_login_retry: 5 })
      server = await serverThrough(pgbouncer)
      await expectServing(server)
      const role = testDatabase.schema as string
      await adminQuery(`alter role ${role} nologin`)
      try {
        // Its server connections go; it cannot open new ones.
        await adminQuery(
          'select pg_terminate_backend(pid) from pg_stat_activity where usename = $1',
          [role],
        )
        await expectUnavailable(server)
      } finally {
        await adminQuery(`alter role ${role} login`)
      }
      // PostgreSQL would take its logins again, but PgBouncer waits out server_login_retry.
      await expectUnavailable(server)
      expect(pgbouncer.log()).toContain('server login has been failing')
      await expectServing(server)
    })

    it('while it is paused (PAUSE), past the database timeout, and once it resumes', async () => {
      const pgbouncer = await pgbouncerFor({})
      server = await serverThrough(pgbouncer)
      await expectServing(server)
      await pgbouncer.admin(`PAUSE ${ALIAS}`)
      try {
        await expectUnavailable(server)
      } finally {
        await pgbouncer.admin(`RESUME ${ALIAS}`)
      }
      await expectServing(server)
    }, 40_000)
  },
)

describe.runIf(throughPooler)("isDatabaseUnavailable: PgBouncer's own errors", () => {
  afterEach(stopAllPgBouncers)

  /** The error `action` rejects with. */
  async function failure(action: () => Promise<unknown>): Promise<Error> {
    try {
      await action()
    } catch (error) {
      return error as Error
    }
    throw new Error('expected a failure')
  }

  /** True for `error`, and for its message alone: a later PgBouncer may send another SQLSTATE. */
  function expectUnavailableError(error: Error, message: string): void {
    expect({ code: (error as { code?: string }).code, message: error.message }).toEqual({
      code: '08P01',
      message,
    })
    expect(isDatabaseUnavailable(error)).toBe(true)
    expect(isDatabaseUnavailable(Object.assign(new Error(message), { code: 'XX000' }))).toBe(true)
  }

  it('is true for a full pooler, a wait for a server connection, failing logins', async () => {
    const pgbouncer = await pgbouncerFor({
      max_client_conn: 3,
      default_pool_size: 1,
      query_wait_timeout: 1,
      server_login_retry: 5,
    })
    const holder = await clientOf(pgbouncer)
    await holder.query('begin')
    await holder.query('select 1')
    const waiter = await clientOf(pgbouncer)
    expectUnavailableError(await failure(() => waiter.query('select 1')), 'query_wait_timeout')
    const others = [await clientOf(pgbouncer), await clientOf(pgbouncer)]
    expectUnavailableError(
      await failure(() => clientOf(pgbouncer)),
      'no more connections allowed (max_client_conn)',
    )
    for (const client of [holder, ...others]) await client.end()

    const role = testDatabase.schema as string
    await adminQuery(`alter role ${role} nologin`)
    await adminQuery('select pg_terminate_backend(pid) from pg_stat_activity where usename = $1', [
      role,
    ])
    try {
      const refused = await failure(async () => (await clientOf(pgbouncer)).query('select 1'))
      expect(isDatabaseUnavailable(refused)).toBe(true)
    } finally {
      await adminQuery(`alter role ${role} login`)
    }
    expectUnavailableError(
      await failure(async () => (await clientOf(pgbouncer)).query('select 1')),
      'server login has been failing, try again later (server_login_retry)',
    )
  })

  it('is false for an error in the query itself, sent through PgBouncer', async () => {
    const pgbouncer = await pgbouncerFor({})
    const client = await clientOf(pgbouncer)
    try {
      for (const text of ['selec 1', 'select 1/0', "select 'x'::int"]) {
        const error = await failure(() => client.query(text))
        expect({ text, unavailable: isDatabaseUnavailable(error) }).toEqual({
          text,
          unavailable: false,
        })
      }
    } finally {
      await client.end()
    }
  })
})

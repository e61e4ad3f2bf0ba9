// Slow: the LiveTasks invariant across server restarts, and two server processes on one
// PostgreSQL schema.
import { randomBytes } from 'node:crypto'
import { systemHas } from '@tasklane/testing/requirements'
import { startServer } from '@tasklane/testing/server'
import fc from 'fast-check'
import pg from 'pg'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { ensurePostgres, POSTGRES_URL } from '../../../apps/server/test/support/postgres.js'
import { check, type Server, type Setup, scenario, sqliteServerSetup } from './live-tasks-check.js'

describe('LiveTasks against a real server on SQLite, restarted', () => {
  const setup = sqliteServerSetup()

  it('goes on exactly across a restart of the server (same database and port)', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (s) => check(setup(), s, true)),
      { numRuns: 6, endOnFailure: true },
    )
  }, 600_000)
})

// Without PostgreSQL: skipped with one loud line, or a failure under TASKLANE_REQUIRE_ALL=1.
const postgresProblem = await ensurePostgres()
const hasPostgres = systemHas(
  `PostgreSQL at ${POSTGRES_URL} (${postgresProblem})`,
  postgresProblem === undefined,
  'apt-get install postgresql, with trust auth and a "test" database on 127.0.0.1:5432, or set TASKLANE_TEST_POSTGRES_URL',
)

describe.runIf(hasPostgres)(
  'LiveTasks against two server processes on one PostgreSQL schema',
  () => {
    const schema = `tl_client_${randomBytes(6).toString('hex')}`
    const admin = async (sql: string) => {
      const db = new pg.Client({ connectionString: POSTGRES_URL })
      await db.connect()
      try {
        await db.query(sql)
      } finally {
        await db.end()
      }
    }
    const url = new URL(POSTGRES_URL)
    url.searchParams.set('options', `-c search_path=${schema}`)
    let servers: Server[] = []

    beforeAll(async () => {
      await admin(`create schema ${schema}`)
      // One after the other: the first creates the tables.
      servers.push(await startServer({ databaseUrl: url.toString() }))
      servers.push(await startServer({ databaseUrl: url.toString() }))
    }, 120_000)
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.close()))
      await admin(`drop schema if exists ${schema} cascade`)
    })

    // The live copies read the first instance; the others write to both.
    const setup = (): Setup => ({
      readUrl: (servers[0] as Server).url,
      writeUrls: servers.map((server) => server.url),
      async restart() {
        const [first, second] = servers as [Server, Server]
        await first.stop()
        servers = [await startServer({ databaseUrl: url.toString(), ...first.place }), second]
      },
    })

    it('equals a fresh listing once caught up, through random changes on both instances and cut connections', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, (s) => check(setup(), s)),
        { numRuns: 5, endOnFailure: true },
      )
    }, 600_000)

    it('goes on exactly across a restart of the instance it reads', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, (s) => check(setup(), s, true)),
        { numRuns: 1, endOnFailure: true },
      )
    }, 600_000)
  },
)

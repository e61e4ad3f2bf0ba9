// Slow: LiveTasks over every sort and the planning filters against a server on PostgreSQL
// (its own schema), as live-tasks-sorts.e2e.test.ts does on SQLite.
import { randomBytes } from 'node:crypto'
import { systemHas } from '@tasklane/testing/requirements'
import { startServer } from '@tasklane/testing/server'
import fc from 'fast-check'
import pg from 'pg'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { ensurePostgres, POSTGRES_URL } from '../../../apps/server/test/support/postgres.js'
import { checkSorted, sortScenario } from './live-tasks-sorts-check.js'

// Without PostgreSQL: skipped with one loud line, or a failure under TASKLANE_REQUIRE_ALL=1.
const postgresProblem = await ensurePostgres()
const hasPostgres = systemHas(
  `PostgreSQL at ${POSTGRES_URL} (${postgresProblem})`,
  postgresProblem === undefined,
  'apt-get install postgresql, with trust auth and a "test" database on 127.0.0.1:5432, or set TASKLANE_TEST_POSTGRES_URL',
)

describe.runIf(hasPostgres)('LiveTasks in every sort against a server on PostgreSQL', () => {
  const schema = `tl_client_sorts_${randomBytes(6).toString('hex')}`
  const admin = async (sql: string) => {
    const db = new pg.Client({ connectionString: POSTGRES_URL })
    await db.connect()
    try {
      await db.query(sql)
    } finally {
      await db.end()
    }
  }
  let server: Awaited<ReturnType<typeof startServer>>

  beforeAll(async () => {
    await admin(`create schema ${schema}`)
    const url = new URL(POSTGRES_URL)
    url.searchParams.set('options', `-c search_path=${schema}`)
    server = await startServer({ databaseUrl: url.toString() })
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await admin(`drop schema if exists ${schema} cascade`)
  })

  for (const sort of ['id', 'due', 'priority', 'position', 'updated'] as const) {
    it(`sort=${sort}: equals a fresh listing once caught up, through random creates, changes, moves and deletes`, async () => {
      await fc.assert(
        fc.asyncProperty(sortScenario(sort), (s) => checkSorted(server.url, s)),
        { numRuns: 15, endOnFailure: true },
      )
    }, 300_000)
  }
})

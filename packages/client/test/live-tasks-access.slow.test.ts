// Live copies under changing rights on two server processes sharing one PostgreSQL schema:
// the admin changes members and tasks through one instance, each person's live copy and
// fresh listing read the other, so every access change crosses instances (the check:
// live-tasks-access-check.ts).
import { randomBytes } from 'node:crypto'
import { systemHas } from '@tasklane/testing/requirements'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import fc from 'fast-check'
import pg from 'pg'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { ensurePostgres, POSTGRES_URL } from '../../../apps/server/test/support/postgres.js'
import { type AccessSetup, ADMIN, check, makeTokens, step } from './live-tasks-access-check.js'

// Without PostgreSQL: skipped with one loud line, or a failure under TASKLANE_REQUIRE_ALL=1.
const postgresProblem = await ensurePostgres()
const hasPostgres = systemHas(
  `PostgreSQL at ${POSTGRES_URL} (${postgresProblem})`,
  postgresProblem === undefined,
  'apt-get install postgresql, with trust auth and a "test" database on 127.0.0.1:5432, or set TASKLANE_TEST_POSTGRES_URL',
)

describe.runIf(hasPostgres)(
  'LiveTasks while members come and go, on two PostgreSQL instances',
  () => {
    const schema = `tl_access_${randomBytes(6).toString('hex')}`
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
    const servers: TasklaneServer[] = []
    let setup: AccessSetup

    beforeAll(async () => {
      await admin(`create schema ${schema}`)
      // One after the other: the first creates the tables.
      for (let i = 0; i < 2; i++) {
        servers.push(await startServer({ apiToken: ADMIN, databaseUrl: url.toString() }))
      }
      const [writer, reader] = servers as [TasklaneServer, TasklaneServer]
      setup = { writeUrl: writer.url, readUrl: reader.url, tokens: await makeTokens(writer.url) }
    }, 120_000)

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.close()))
      await admin(`drop schema if exists ${schema} cascade`)
    })

    it("equals each principal's own fresh listing on the other instance once caught up", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), (steps) =>
          check(setup, steps),
        ),
        { numRuns: 4, endOnFailure: true },
      )
    }, 600_000)
  },
)

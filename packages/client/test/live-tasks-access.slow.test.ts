// Live copies under changing rights on two server processes sharing one PostgreSQL schema:
// the admin changes members and tasks through one instance, each person's live copy and
// fresh listing read the other, so every access change crosses instances (the check:
// live-tasks-access-check.ts).
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { type AccessSetup, ADMIN, check, makeTokens, step } from './live-tasks-access-check.js'
import { hasPostgres, postgresSchema } from './postgres-schema.js'

describe.runIf(hasPostgres)(
  'LiveTasks while members come and go, on two PostgreSQL instances',
  () => {
    const database = postgresSchema('tl_access')
    const servers: TasklaneServer[] = []
    let setup: AccessSetup

    beforeAll(async () => {
      await database.create()
      // One after the other: the first creates the tables.
      for (let i = 0; i < 2; i++) {
        servers.push(await startServer({ apiToken: ADMIN, databaseUrl: database.url }))
      }
      const [writer, reader] = servers as [TasklaneServer, TasklaneServer]
      setup = { writeUrl: writer.url, readUrl: reader.url, tokens: await makeTokens(writer.url) }
    }, 120_000)

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.close()))
      await database.drop()
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

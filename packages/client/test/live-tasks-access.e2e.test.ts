// Live copies under changing rights, against a real server on SQLite with credentials (the
// check: live-tasks-access-check.ts; on two PostgreSQL instances: live-tasks-access.slow.test.ts).
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { type AccessSetup, ADMIN, check, makeTokens, step } from './live-tasks-access-check.js'

let server: TasklaneServer
let setup: AccessSetup

beforeAll(async () => {
  server = await startServer({ apiToken: ADMIN })
  setup = { writeUrl: server.url, readUrl: server.url, tokens: await makeTokens(server.url) }
}, 60_000)

afterAll(async () => {
  await server?.close()
})

describe('LiveTasks while members come and go', () => {
  it("equals each principal's own fresh listing once caught up", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), (steps) =>
        check(setup, steps),
      ),
      { numRuns: 6, endOnFailure: true },
    )
  }, 600_000)
})

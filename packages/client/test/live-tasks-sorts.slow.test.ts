// Slow: LiveTasks over every sort and the planning filters against a server on PostgreSQL
// (its own schema), as live-tasks-sorts.e2e.test.ts does on SQLite.
import { startServer } from '@tasklane/testing/server'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { checkSorted, sortScenario } from './live-tasks-sorts-check.js'
import { hasPostgres, postgresSchema } from './postgres-schema.js'

describe.runIf(hasPostgres)('LiveTasks in every sort against a server on PostgreSQL', () => {
  const database = postgresSchema('tl_client_sorts')
  let server: Awaited<ReturnType<typeof startServer>>

  beforeAll(async () => {
    await database.create()
    server = await startServer({ databaseUrl: database.url })
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await database.drop()
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

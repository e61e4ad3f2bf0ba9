// Slow: the LiveTasks invariant across server restarts, and two server processes on one
// PostgreSQL schema.
import { startServer } from '@tasklane/testing/server'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { check, type Server, type Setup, scenario, sqliteServerSetup } from './live-tasks-check.js'
import { hasPostgres, postgresSchema } from './postgres-schema.js'

describe('LiveTasks against a real server on SQLite, restarted', () => {
  const setup = sqliteServerSetup()

  it('goes on exactly across a restart of the server (same database and port)', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (s) => check(setup(), s, true)),
      { numRuns: 6, endOnFailure: true },
    )
  }, 600_000)
})

describe.runIf(hasPostgres)(
  'LiveTasks against two server processes on one PostgreSQL schema',
  () => {
    const database = postgresSchema('tl_client')
    let servers: Server[] = []

    beforeAll(async () => {
      await database.create()
      // One after the other: the first creates the tables.
      servers.push(await startServer({ databaseUrl: database.url }))
      servers.push(await startServer({ databaseUrl: database.url }))
    }, 120_000)
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.close()))
      await database.drop()
    })

    // The live copies read the first instance; the others write to both.
    const setup = (): Setup => ({
      readUrl: (servers[0] as Server).url,
      writeUrls: servers.map((server) => server.url),
      async restart() {
        const [first, second] = servers as [Server, Server]
        await first.stop()
        servers = [await startServer({ databaseUrl: database.url, ...first.place }), second]
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

// The LiveTasks invariant against a real server (SQLite); restarts and PostgreSQL:
// live-tasks.slow.test.ts.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { check, type Server, type Setup, scenario } from './live-tasks-check.js'
import { startServer } from './server.js'

describe('LiveTasks against a real server on SQLite', () => {
  let server: Server

  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server?.close())

  const setup = (): Setup => ({
    readUrl: server.url,
    writeUrls: [server.url],
    async restart() {
      await server.stop()
      server = await startServer({ restart: server.place })
    },
  })

  it('equals a fresh listing once caught up, through random changes and cut connections', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (s) => check(setup(), s)),
      { numRuns: 8, endOnFailure: true },
    )
  }, 600_000)
})

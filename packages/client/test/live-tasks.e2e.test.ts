// The LiveTasks invariant against a real server (SQLite); restarts and PostgreSQL:
// live-tasks.slow.test.ts.
import fc from 'fast-check'
import { describe, it } from 'vitest'
import { check, scenario, sqliteServerSetup } from './live-tasks-check.js'

describe('LiveTasks against a real server on SQLite', () => {
  const setup = sqliteServerSetup()

  it('equals a fresh listing once caught up, through random changes and cut connections', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (s) => check(setup(), s)),
      { numRuns: 8, endOnFailure: true },
    )
  }, 600_000)
})

import { rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, get, postJson } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'
import { onPostgres } from './support/test-database.js'

// SQLite only: a file that can be removed under the server.
describe.skipIf(onPostgres)('the database directory removed while the server runs', () => {
  let server: TestServer
  const log: Record<string, unknown>[] = []

  beforeAll(async () => {
    server = await startServer({ log })
  })

  afterAll(async () => {
    await server?.close()
  })

  it('answers creates 503, never 201, and readiness 503: nothing written there would survive a restart', async () => {
    expect((await postJson(server, { name: 'before' })).status).toBe(201)
    if (server.testDatabase.config.kind !== 'sqlite') throw new Error('SQLite only')
    await rm(dirname(server.testDatabase.config.filename), { recursive: true, force: true })

    const statuses = new Set<number>()
    for (let i = 0; i < 20; i++) {
      const response = await postJson(server, { name: `after ${i}` })
      statuses.add(response.status)
      if (i === 0) {
        await expectError(
          response,
          503,
          'The database is not reachable; retry the request shortly.',
        )
        expect(response.headers.get('retry-after')).toBe('1')
      } else await response.arrayBuffer()
    }
    expect([...statuses]).toEqual([503])
    expect((await get(server, '/health/ready')).status).toBe(503)
    // Reads still come from the file that is open.
    expect((await get(server, '/tasks/1')).status).toBe(200)

    // 20 failed creates, one cause: one log line (the next is due seconds later), no stack.
    const unavailable = log.filter(
      (line) => line.msg === 'service unavailable' && String(line.cause).includes('REPLACED'),
    )
    expect(unavailable).toHaveLength(1)
    expect(unavailable[0]).toMatchObject({
      level: 40,
      suppressed: 0,
      cause: expect.stringMatching(
        /^DatabaseUnavailableError: TASKLANE_DATABASE_FILE_REPLACED: SQLite write failed: The database file .+ no longer exists/,
      ),
    })
    expect(log.filter((line) => line.msg === 'request failed' || 'err' in line)).toEqual([])
  })
})

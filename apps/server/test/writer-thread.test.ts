import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SqliteStorage } from '../src/storage/sqlite/open.js'
import { expectError, get, postJson } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'
import { onPostgres } from './support/test-database.js'

// SQLite only: PostgreSQL has no writer thread.
describe.skipIf(onPostgres)('the SQLite writer thread dies', () => {
  let server: TestServer
  const log: Record<string, unknown>[] = []

  beforeAll(async () => {
    server = await startServer({ log })
  })

  afterAll(async () => {
    await server?.close()
  })

  it('answers creates and readiness 503 until the thread is restarted, then 201 and 200 again', async () => {
    expect((await postJson(server, { name: 'before' })).status).toBe(201)
    expect((await get(server, '/health/ready')).status).toBe(200)

    const storage = server.storage as SqliteStorage
    const thread = storage.writerThread()
    expect(thread).toBeDefined()
    const exited = new Promise((resolve) => thread?.once('exit', resolve))
    // Creates in flight when it dies, and right after: none may hang or get a 500.
    const inFlight = Array.from({ length: 5 }, (_, i) => postJson(server, { name: `dying ${i}` }))
    await thread?.terminate()
    await exited
    const after = await postJson(server, { name: 'while dead' })
    await expectError(after, 503, 'The database is not reachable; retry the request shortly.')
    expect(after.headers.get('retry-after')).toBe('1')
    expect((await get(server, '/health/ready')).status).toBe(503)
    for (const response of await Promise.all(inFlight))
      expect([201, 503]).toContain(response.status)

    // A new thread is started after a short backoff; readiness turns green by itself.
    await vi.waitFor(async () => expect((await get(server, '/health/ready')).status).toBe(200), {
      timeout: 10_000,
      interval: 100,
    })
    expect(storage.writerThread()).not.toBe(thread)
    const created = await postJson(server, { name: 'after' })
    expect(created.status).toBe(201)

    // The death and the return are logged, once each.
    const messages = log.map((line) => line.msg as string)
    expect(
      messages.filter((msg) =>
        /^The SQLite writer thread stopped \(.+\); restarting it in \d+ ms\.$/.test(msg),
      ),
    ).toHaveLength(1)
    expect(messages.filter((msg) => msg === 'The SQLite writer thread is back.')).toHaveLength(1)
  })
})

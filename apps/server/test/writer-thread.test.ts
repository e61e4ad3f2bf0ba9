import { rename } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SqliteStorage } from '../src/storage/sqlite/sqlite-storage.js'
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

  it('answers creates and readiness 503 while it is down, logs why, restarts it with backoff, then 201 and 200 again', async () => {
    expect((await postJson(server, { name: 'before' })).status).toBe(201)
    expect((await get(server, '/health/ready')).status).toBe(200)
    if (server.testDatabase.config.kind !== 'sqlite') throw new Error('SQLite only')
    const { filename } = server.testDatabase.config

    // The file is moved away first, so that the restarted thread refuses to start (it
    // writes to no other file than the one opened) and dies again, until it is back:
    // the thread stays down for as long as the test needs, whatever the machine's speed.
    await rename(filename, `${filename}.away`)
    const storage = server.storage as SqliteStorage
    const thread = storage.writerThread()
    expect(thread).toBeDefined()
    const exited = new Promise((resolve) => thread?.once('exit', resolve))
    // Creates in flight when it dies: none may hang or get a 500.
    const inFlight = Array.from({ length: 5 }, (_, i) => postJson(server, { name: `dying ${i}` }))
    await thread?.terminate()
    await exited

    const after = await postJson(server, { name: 'while dead' })
    await expectError(after, 503, 'The database is not reachable; retry the request shortly.')
    expect(after.headers.get('retry-after')).toBe('1')
    expect((await get(server, '/health/ready')).status).toBe(503)
    // Reads do not need the writer.
    expect((await get(server, '/tasks/1')).status).toBe(200)
    for (const response of await Promise.all(inFlight))
      expect([201, 503]).toContain(response.status)
    const stopped = () =>
      log.filter((line) =>
        /^The SQLite writer thread stopped \(.+\); restarting it in \d+ ms\.$/.test(
          String(line.msg),
        ),
      )
    // Killed, then refused to start at least once: each death logged, the wait growing.
    await vi.waitFor(() => expect(stopped().length).toBeGreaterThanOrEqual(2), {
      timeout: 10_000,
      interval: 50,
    })
    expect(stopped()[0]).toMatchObject({ level: 50, msg: expect.stringContaining('100 ms') })
    expect(stopped()[1]).toMatchObject({
      msg: expect.stringMatching(/no longer exists.*restarting it in 200 ms/),
    })

    await rename(`${filename}.away`, filename)
    await vi.waitFor(async () => expect((await get(server, '/health/ready')).status).toBe(200), {
      timeout: 15_000,
      interval: 100,
    })
    expect(storage.writerThread()).not.toBe(thread)
    expect((await postJson(server, { name: 'after' })).status).toBe(201)
    expect(log.filter((line) => line.msg === 'The SQLite writer thread is back.')).toHaveLength(1)
  }, 30_000)
})

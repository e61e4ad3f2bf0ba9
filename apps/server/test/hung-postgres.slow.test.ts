import { within } from '@tasklane/testing/launch'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, get, postJson } from './support/http.js'
import { type ServerProcess, startServerProcess } from './support/processes.js'
import { startServer, type TestServer } from './support/server.js'
import { type StallProxy, startStallProxy } from './support/stall-proxy.js'
import { createTestDatabase, onPostgres, type TestDatabase } from './support/test-database.js'

const UNAVAILABLE = 'The database is not reachable; retry the request shortly.'

/** The test database, its waits bounded at `timeoutMs` (DATABASE_TIMEOUT_MS). */
function bounded(testDatabase: TestDatabase, timeoutMs: number): TestDatabase {
  if (testDatabase.config.kind !== 'postgres') throw new Error('PostgreSQL only')
  return { ...testDatabase, config: { ...testDatabase.config, timeoutMs } }
}

describe.runIf(onPostgres)('a table lock held by another connection', () => {
  let testDatabase: TestDatabase
  let server: TestServer
  let locker: pg.Client

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    server = await startServer({ testDatabase: bounded(testDatabase, 500) })
    locker = new pg.Client({ connectionString: testDatabase.url })
    await locker.connect()
  })

  afterAll(async () => {
    await locker?.end().catch(() => {})
    await server?.close()
    await testDatabase?.drop()
  })

  it('answers creates and reads 503 once lock_timeout expires, and readiness at once; 201 after the lock is gone', async () => {
    const created = await postJson(server, { name: 'before the lock' })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }

    await locker.query('begin')
    await locker.query('lock table tasks in access exclusive mode')
    try {
      const create = await postJson(server, { name: 'under the lock' })
      await expectError(create, 503, UNAVAILABLE)
      expect(create.headers.get('retry-after')).toBe('1')
      await expectError(await get(server, `/tasks/${id}`), 503, UNAVAILABLE)
      // A full list fails before its 200 is sent, not halfway through.
      await expectError(await get(server, '/tasks'), 503, UNAVAILABLE)
      // Readiness does not touch the locked table: it answers, whatever it finds.
      expect([200, 503]).toContain((await get(server, '/health/ready')).status)
    } finally {
      await locker.query('rollback')
    }
    expect((await postJson(server, { name: 'after the lock' })).status).toBe(201)
    expect((await get(server, `/tasks/${id}`)).status).toBe(200)
  })
})

describe.runIf(onPostgres)('PostgreSQL stops answering (a stalled connection)', () => {
  let testDatabase: TestDatabase
  let proxy: StallProxy
  let server: ServerProcess | undefined

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    const target = new URL(testDatabase.url)
    proxy = await startStallProxy(target.hostname, Number(target.port || 5432))
  })

  afterAll(async () => {
    proxy?.resume()
    await server?.kill().catch(() => {})
    await proxy?.close()
    await testDatabase?.drop()
  })

  it('answers 503 and readiness 503 while it is silent, recovers when it answers, and exits within 10 s of SIGTERM', async () => {
    server = await startServerProcess({
      DATABASE_URL: proxy.through(testDatabase.url),
      DATABASE_TIMEOUT_MS: '1000',
    })
    expect((await postJson(server, { name: 'before the stall' })).status).toBe(201)
    expect((await get(server, '/health/ready')).status).toBe(200)

    proxy.stall()
    const create = await postJson(server, { name: 'during the stall' })
    await expectError(create, 503, UNAVAILABLE)
    expect(create.headers.get('retry-after')).toBe('1')
    await expectError(await get(server, '/tasks/1'), 503, UNAVAILABLE)
    expect((await get(server, '/health/ready')).status).toBe(503)

    proxy.resume()
    let recovered = 0
    for (let i = 0; i < 100 && recovered === 0; i++) {
      const response = await postJson(server, { name: `after the stall ${i}` })
      if (response.status === 201) recovered = i + 1
      else await response.arrayBuffer()
    }
    expect(recovered).toBeGreaterThan(0)

    // Silent again, with requests waiting on it: SIGTERM still ends the process in time.
    proxy.stall()
    const waiting = [postJson(server, { name: 'at SIGTERM' }), get(server, '/tasks/1')].map((p) =>
      p.catch(() => undefined),
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    process.kill(server.pid, 'SIGTERM')
    const exit = await within(server.exited, 10_000, 'the process exiting after SIGTERM')
    // It ended itself (the hard-exit backstop at the latest), not by a signal.
    expect(exit.signal).toBeNull()
    await Promise.all(waiting)
  }, 60_000)
})

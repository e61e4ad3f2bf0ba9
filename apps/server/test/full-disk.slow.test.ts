import { unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { systemHas } from '@tasklane/testing/requirements'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, get, postJson } from './support/http.js'
import { runServer, startServerProcess } from './support/processes.js'
import { startServer, type TestServer } from './support/server.js'
import { createTestDatabase, onPostgres, type TestDatabase } from './support/test-database.js'
import { fillDisk, mountTmpfs, unmountTmpfs } from './support/tmpfs.js'

// SQLite only: a full disk under the database file. The disk is a small tmpfs mounted on
// the test database's directory, which needs root (as CI runs).
const testDatabase: TestDatabase | undefined = onPostgres ? undefined : await createTestDatabase()
const dir =
  testDatabase?.config.kind === 'sqlite' ? dirname(testDatabase.config.filename) : undefined
const mounted =
  dir !== undefined &&
  systemHas(
    'a tmpfs to fill (mount -t tmpfs, as root)',
    mountTmpfs(dir, '4m'),
    'run the tests as root, where mount -t tmpfs works (CI does)',
  )
if (!mounted) await testDatabase?.drop()

describe.runIf(mounted)('a full disk under the SQLite database', () => {
  let server: TestServer
  let fill: string

  beforeAll(async () => {
    server = await startServer({ testDatabase })
  })

  afterAll(async () => {
    await server?.close()
    if (dir !== undefined) unmountTmpfs(dir)
    await testDatabase?.drop()
  })

  it('answers creates 503 with Retry-After and readiness 503 while the disk is full', async () => {
    expect((await postJson(server, { name: 'before the disk fills' })).status).toBe(201)
    fill = fillDisk(dir as string)
    // A commit that still fits the space SQLite holds already may succeed; one that needs
    // more cannot. Long names fill pages quickly.
    let response: Response | undefined
    for (let i = 0; i < 500; i++) {
      response = await postJson(server, { name: `${i} ${'x'.repeat(190)}` })
      if (response.status !== 201) break
      await response.arrayBuffer()
    }
    await expectError(
      response as Response,
      503,
      'The database is not reachable; retry the request shortly.',
    )
    expect(response?.headers.get('retry-after')).toBe('1')
    // Reads need no space: they go on.
    expect((await get(server, '/tasks/1')).status).toBe(200)
    const ready = await get(server, '/health/ready')
    expect(ready.status).toBe(503)
    expect(ready.headers.get('retry-after')).toBe('1')
  })

  // Both start a server process: seconds each on a loaded machine.
  it('does not report ready when it starts on the full disk with its database already there', async () => {
    // The file and its -wal exist: opening needs no space, but no create can commit.
    const second = await startServerProcess({ DATABASE_URL: testDatabase?.url })
    try {
      const ready = await get(second, '/health/ready')
      await expectError(ready, 503, 'The database is not reachable; retry the request shortly.')
      expect((await postJson(second, { name: 'on the full disk' })).status).toBe(503)
    } finally {
      await second.stop()
    }
  }, 30_000)

  it('refuses to start on the full disk with one line naming the file and the cause', () => {
    const file = join(dir as string, 'new.db')
    const run = runServer([], { DATABASE_URL: file, LOG_LEVEL: 'silent' })
    expect(run.status).toBe(1)
    const lines = run.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      new RegExp(`^Cannot open the SQLite database ${file}: .*(full|disk|I/O).* \\(SQLITE_`),
    )
  }, 30_000)

  it('answers 201 and readiness 200 again once space is freed, without a restart', async () => {
    await unlink(fill)
    const created = await postJson(server, { name: 'after space came back' })
    expect(created.status).toBe(201)
    expect((await get(server, '/health/ready')).status).toBe(200)
  })
})

import { type SpawnSyncReturns, spawnSync } from 'node:child_process'
import { chmodSync } from 'node:fs'
import { dirname } from 'node:path'
import { systemHas } from '@tasklane/testing/requirements'
import { afterAll, describe, expect, it } from 'vitest'
import { SERVER_DIR, serverMain } from './support/processes.js'
import { backend, createTestDatabase, type TestDatabase } from './support/test-database.js'
import { mountTmpfs, unmountTmpfs } from './support/tmpfs.js'

/** `node main.js` on this SQLite file, as `uid` when given; a server that starts is stopped after 10 s. */
function start(filename: string, uid?: number): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [serverMain()], {
    cwd: SERVER_DIR,
    env: { ...process.env, DATABASE_URL: filename, PORT: '0', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 10_000,
    ...(uid === undefined ? {} : { uid, gid: uid }),
  })
}

/** A database with its tables, in a directory anyone may write (SQLite's -wal and -shm files). */
async function seeded(): Promise<TestDatabase & { filename: string }> {
  const testDatabase = await createTestDatabase()
  await testDatabase.migrate()
  const { filename } = testDatabase.config as { filename: string }
  chmodSync(dirname(filename), 0o777)
  return { ...testDatabase, filename }
}

const NOBODY = 65_534
const root = process.getuid?.() === 0
/** Whether `nobody` can run the server: this Node binary and the server's files are not behind a 0700 directory. */
const nobodyRunsServer = () =>
  spawnSync(process.execPath, [serverMain(), '--version'], { uid: NOBODY, gid: NOBODY }).status ===
  0
const databases: TestDatabase[] = []
afterAll(async () => {
  for (const database of databases) await database.drop()
})

describe.runIf(backend === 'sqlite')('an SQLite database the server cannot write', () => {
  // Checked on SQLite only, where the test runs: not a server start for nothing on the others.
  it.runIf(
    backend === 'sqlite' &&
      systemHas('root, to run the server as nobody', root, 'run the tests as root (CI does)') &&
      systemHas(
        `a Node binary and server that nobody may run (${process.execPath}, ${serverMain()})`,
        nobodyRunsServer(),
        'keep Node and the checkout where every user can read them (.ci/run does)',
      ),
  )(
    'refuses to start with one line when the file is read-only to it, exit 1',
    async () => {
      const database = await seeded()
      databases.push(database)
      chmodSync(database.filename, 0o444)
      const { status, stdout, stderr } = start(database.filename, NOBODY)
      expect({ status, stdout, stderr }).toEqual({
        status: 1,
        stdout: '',
        stderr: `Cannot open the SQLite database ${database.filename}: the file cannot be written (EACCES)\n`,
      })
    },
    30_000,
  )

  it('refuses to start with one line when its file system is read-only, exit 1', async (context) => {
    const database = await seeded()
    databases.push(database)
    const dir = dirname(database.filename)
    // The database is made on a small disk of its own, which is then made read-only.
    if (!mountTmpfs(dir, '4m')) return context.skip('mount -t tmpfs needs root')
    try {
      await database.migrate()
      expect(spawnSync('mount', ['-o', 'remount,ro', dir]).status).toBe(0)
      const { status, stderr } = start(database.filename)
      expect({ status, stderr }).toEqual({
        status: 1,
        stderr: `Cannot open the SQLite database ${database.filename}: the file cannot be written (EROFS)\n`,
      })
    } finally {
      unmountTmpfs(dir)
    }
  }, 30_000)
})

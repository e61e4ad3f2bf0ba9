import { readdirSync, readFileSync } from 'node:fs'
import { type AddressInfo, createServer, type Server } from 'node:net'
import { dirname, join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { envName, SettingsSchema } from '../src/settings/schema.js'
import { createTask } from './support/http.js'
import { killAll, runServer, SERVER_DIR, startServerProcess } from './support/processes.js'
import { backend, createTestDatabase } from './support/test-database.js'

const { version } = JSON.parse(readFileSync(join(SERVER_DIR, 'package.json'), 'utf8')) as {
  version: string
}

afterAll(killAll)

describe('node dist/main.js --help', () => {
  it.each(['--help', '-h'])('%s prints every setting of the schema and exits 0', (flag) => {
    const { status, stdout, stderr } = runServer([flag], { PORT: 'not read' })
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' })
    const keys = Object.keys(
      SettingsSchema.properties,
    ) as (keyof typeof SettingsSchema.properties)[]
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) {
      const env = envName(key)
      const flagName = `--${env.toLowerCase().replaceAll('_', '-')} <value>`
      expect(stdout.split('\n').some((line) => line.includes(flagName) && line.includes(env))).toBe(
        true,
      )
    }
  })
})

describe('node dist/main.js --version', () => {
  it.each(['--version', '-v', '-V'])("%s prints package.json's version and exits 0", (flag) => {
    expect(runServer([flag])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' })
  })
})

describe('node dist/main.js on a port that is taken', () => {
  let taken: Server
  let port: number
  beforeAll(async () => {
    taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    port = (taken.address() as AddressInfo).port
  })
  afterAll(() => taken?.close())

  const start = (databaseUrl: string) =>
    runServer([], {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
    })

  it('exits 2 with one line naming the port, how to pick another and that PORT=0 picks a free one', async () => {
    const testDatabase = await createTestDatabase()
    try {
      const { status, stderr } = start(testDatabase.url)
      expect({ status, stderr }).toEqual({
        status: 2,
        stderr: `Port ${port} is already in use on 127.0.0.1; pick another with PORT=3000 (or --port 3000), or PORT=0 for any free port.\n`,
      })
    } finally {
      await testDatabase.drop()
    }
  }, 30_000)

  describe.runIf(backend === 'sqlite')('on SQLite', () => {
    it('leaves no new, empty database file behind', async () => {
      const testDatabase = await createTestDatabase()
      try {
        expect(start(testDatabase.url).status).toBe(2)
        expect(readdirSync(dirname(testDatabase.url))).toEqual([])
      } finally {
        await testDatabase.drop()
      }
    }, 30_000)

    it('leaves no directory it made for the new database behind', async () => {
      const testDatabase = await createTestDatabase()
      const dir = dirname(testDatabase.url)
      try {
        expect(start(join(dir, 'made/for/it/tasks.db')).status).toBe(2)
        expect(readdirSync(dir)).toEqual([])
      } finally {
        await testDatabase.drop()
      }
    }, 30_000)

    it('keeps a database that was there before, with its tasks', async () => {
      const testDatabase = await createTestDatabase()
      try {
        await testDatabase.migrate()
        await testDatabase.insertMany(2)
        expect(start(testDatabase.url).status).toBe(2)
        expect(
          await testDatabase.use((db) => db.selectFrom('tasks').select('id').execute()),
        ).toHaveLength(2)
      } finally {
        await testDatabase.drop()
      }
    }, 30_000)
  })
})

describe('node dist/main.js with a setting it cannot use', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT "abc" is not a whole number from 0 to 65535.'],
    [
      { DATABASE_URL: 'postgres://127.0.0.1:1/none', DATABASE_POOL_SIZE: 'abc' },
      'DATABASE_POOL_SIZE "abc" is not a whole number from 1 to 1000.',
    ],
    [
      { DATABASE_URL: 'postgres://127.0.0.1:1/none', DATABASE_TIMEOUT_MS: '2147483648' },
      'DATABASE_TIMEOUT_MS "2147483648" is not a whole number from 1 to 2147483647.',
    ],
    [
      { READY_TIMEOUT_MS: '4294967296' },
      'READY_TIMEOUT_MS "4294967296" is not a whole number from 1 to 2147483647.',
    ],
  ])('exits 2 with the message on stderr (%j)', (env, message) => {
    const { status, stdout, stderr } = runServer(['--log-level', 'silent'], env)
    expect({ status, stdout, stderr }).toEqual({ status: 2, stdout: '', stderr: `${message}\n` })
  })

  it('exits 2 for an unknown flag', () => {
    const { status, stderr } = runServer(['--prot', '80'])
    expect(status).toBe(2)
    // Node's own words, as a sentence (Node 22 and later add a hint after it).
    expect(stderr).toMatch(/^Unknown option '--prot'\..* See --help\.\n$/s)
  })
})

describe.runIf(backend === 'sqlite')(
  'node dist/main.js on SQLite with DATABASE_POOL_SIZE=abc',
  () => {
    it('ignores the PostgreSQL-only setting and serves', async () => {
      const testDatabase = await createTestDatabase()
      try {
        const server = await startServerProcess({
          DATABASE_URL: testDatabase.url,
          DATABASE_POOL_SIZE: 'abc',
        })
        expect(await createTask(server, { name: 'pool size ignored' })).toMatchObject({ id: 1 })
        expect(await server.stop()).toEqual({ code: 0, signal: null })
      } finally {
        await testDatabase.drop()
      }
    })
  },
)

describe('the start-up log lines', () => {
  // Two server processes, one after the other.
  it('say whether the database is new or how many tasks it holds', {
    timeout: 30_000,
  }, async () => {
    const testDatabase = await createTestDatabase()
    try {
      const first = await startServerProcess({ DATABASE_URL: testDatabase.url })
      const expected =
        backend === 'sqlite' ? 'created a new, empty database' : 'opened a database of 0 tasks'
      await first.waitForLine(new RegExp(`"msg":"${expected}"`))
      for (const name of ['one', 'two']) {
        const response = await fetch(`${first.url}/task`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        })
        expect(response.status).toBe(201)
      }
      await first.stop()
      const again = await startServerProcess({ DATABASE_URL: testDatabase.url })
      const line = JSON.parse(await again.waitForLine(/"msg":"opened a database of 2 tasks"/))
      expect(line.tasks).toBe(2)
      await again.stop()
    } finally {
      await testDatabase.drop()
    }
  })

  it('shows the effective settings with every secret masked, and an SQLite file by its absolute path', async () => {
    const testDatabase = await createTestDatabase()
    try {
      // The local PostgreSQL trusts the connection, so a password in the URL is accepted.
      // An SQLite file is given relative to where the command was started.
      const databaseUrl =
        backend === 'postgres'
          ? testDatabase.url.replace(/^postgres:\/\/(\w+)@/, 'postgres://$1:pg-secret@')
          : relative(SERVER_DIR, testDatabase.url)
      const server = await startServerProcess({
        INIT_CWD: SERVER_DIR,
        DATABASE_URL: databaseUrl,
        API_TOKEN: 'token-secret',
        RATE_LIMIT: '100',
        // Nothing listens there: the server starts anyway (the rate limit fails open).
        RATE_LIMIT_REDIS_URL: 'redis://:redis-secret@127.0.0.1:1/0',
      })
      const line = JSON.parse(await server.waitForLine(/"msg":"starting"/)) as {
        settings: Record<string, unknown>
      }
      expect(line.settings).toMatchObject({
        apiToken: '***',
        rateLimit: 100,
        rateLimitRedisUrl: 'redis://:***@127.0.0.1:1/0',
        logLevel: 'info',
        groupCommit: true,
      })
      if (backend === 'sqlite') {
        expect(databaseUrl).not.toMatch(/^\//)
        expect(line.settings.databaseUrl).toBe(testDatabase.url)
      }
      if (backend === 'postgres') {
        expect(databaseUrl).toContain(':pg-secret@')
        expect(line.settings.databaseUrl).toBe(databaseUrl.replace('pg-secret', '***'))
      }
      await server.stop()
      expect(server.lines.join('\n')).not.toMatch(/pg-secret|token-secret|redis-secret/)
    } finally {
      await testDatabase.drop()
    }
  }, 20_000)
})

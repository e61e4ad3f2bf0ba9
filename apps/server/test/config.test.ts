import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, DEFAULT_DATABASE_FILE, loadConfig, parseDatabaseUrl } from '../src/config.js'

const CWD = '/srv/tasklane'

describe('parseDatabaseUrl', () => {
  it('resolves sqlite:./x.db against the working directory', () => {
    expect(parseDatabaseUrl('sqlite:./x.db', CWD)).toEqual({
      kind: 'sqlite',
      filename: '/srv/tasklane/x.db',
    })
  })

  it('keeps an absolute path after sqlite:', () => {
    expect(parseDatabaseUrl('sqlite:/abs/x.db', CWD)).toEqual({
      kind: 'sqlite',
      filename: '/abs/x.db',
    })
  })

  it('accepts the sqlite:///abs/x.db URL form', () => {
    expect(parseDatabaseUrl('sqlite:///abs/x.db', CWD)).toEqual({
      kind: 'sqlite',
      filename: '/abs/x.db',
    })
  })

  it('treats a plain relative path as an SQLite file', () => {
    expect(parseDatabaseUrl('./data/tasks.db', CWD)).toEqual({
      kind: 'sqlite',
      filename: '/srv/tasklane/data/tasks.db',
    })
  })

  it('treats a plain absolute path as an SQLite file', () => {
    expect(parseDatabaseUrl('/var/lib/tasklane/tasks.db', CWD)).toEqual({
      kind: 'sqlite',
      filename: '/var/lib/tasklane/tasks.db',
    })
  })

  it('keeps :memory: as is', () => {
    expect(parseDatabaseUrl('sqlite::memory:', CWD)).toEqual({
      kind: 'sqlite',
      filename: ':memory:',
    })
  })

  it('defaults to data/tasklane.db when unset or blank', () => {
    const expected = { kind: 'sqlite', filename: resolve(CWD, DEFAULT_DATABASE_FILE) }
    expect(parseDatabaseUrl(undefined, CWD)).toEqual(expected)
    expect(parseDatabaseUrl('', CWD)).toEqual(expected)
    expect(parseDatabaseUrl('   ', CWD)).toEqual(expected)
    expect(expected.filename).toBe('/srv/tasklane/data/tasklane.db')
  })

  it('selects PostgreSQL for postgres://', () => {
    const url = 'postgres://user:secret@db.example:5432/tasks'
    expect(parseDatabaseUrl(url, CWD)).toEqual({ kind: 'postgres', url })
  })

  it('selects PostgreSQL for postgresql://', () => {
    const url = 'postgresql://db.example/tasks?sslmode=require'
    expect(parseDatabaseUrl(url, CWD)).toEqual({ kind: 'postgres', url })
  })

  it('rejects another URL scheme with a ConfigError', () => {
    expect(() => parseDatabaseUrl('mysql://db.example/tasks', CWD)).toThrow(ConfigError)
    expect(() => parseDatabaseUrl('mysql://db.example/tasks', CWD)).toThrow(
      'DATABASE_URL "mysql://db.example/tasks" is neither a PostgreSQL URL nor an SQLite file path.',
    )
  })

  it('rejects sqlite: with no path', () => {
    expect(() => parseDatabaseUrl('sqlite:', CWD)).toThrow(ConfigError)
  })
})

describe('loadConfig', () => {
  it('uses defaults when nothing is set', () => {
    expect(loadConfig({}, [])).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      database: { kind: 'sqlite', filename: resolve(process.cwd(), DEFAULT_DATABASE_FILE) },
      logLevel: 'info',
    })
  })

  it('reads PORT, HOST, DATABASE_URL and LOG_LEVEL from the environment', () => {
    expect(
      loadConfig(
        {
          PORT: '8080',
          HOST: '0.0.0.0',
          DATABASE_URL: 'postgres://db/tasks',
          LOG_LEVEL: 'warn',
        },
        [],
      ),
    ).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      database: { kind: 'postgres', url: 'postgres://db/tasks' },
      logLevel: 'warn',
    })
  })

  it('lets --flags take precedence over the environment', () => {
    expect(
      loadConfig({ PORT: '8080', HOST: '0.0.0.0', DATABASE_URL: 'postgres://db/tasks' }, [
        '--port',
        '9090',
        '--host=::1',
        '--database-url',
        'sqlite:/tmp/flag.db',
        '--log-level',
        'debug',
      ]),
    ).toMatchObject({
      port: 9090,
      host: '::1',
      database: { kind: 'sqlite', filename: '/tmp/flag.db' },
      logLevel: 'debug',
    })
  })

  it('ignores a leading -- that pnpm passes along before the flags', () => {
    expect(loadConfig({}, ['--', '--port', '4000', '--host', '0.0.0.0'])).toMatchObject({
      port: 4000,
      host: '0.0.0.0',
    })
  })

  it('resolves a relative DATABASE_URL against INIT_CWD when set', () => {
    expect(
      loadConfig({ DATABASE_URL: 'sqlite:./t.db', INIT_CWD: '/home/me/project' }, []).database,
    ).toEqual({ kind: 'sqlite', filename: '/home/me/project/t.db' })
  })

  it('accepts port 0 and 65535', () => {
    expect(loadConfig({ PORT: '0' }, []).port).toBe(0)
    expect(loadConfig({ PORT: '65535' }, []).port).toBe(65_535)
  })

  it.each(['abc', '65536', '-1', '80.5', '', ' 80', '0x50'])(
    'throws a ConfigError for PORT "%s"',
    (port) => {
      expect(() => loadConfig({ PORT: port }, [])).toThrow(ConfigError)
      expect(() => loadConfig({ PORT: port }, [])).toThrow(
        `PORT "${port}" is not a port number (0–65535).`,
      )
    },
  )

  it('throws a ConfigError for an invalid --port flag', () => {
    expect(() => loadConfig({}, ['--port', 'http'])).toThrow(ConfigError)
  })

  it('throws a ConfigError for an unknown LOG_LEVEL', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' }, [])).toThrow(ConfigError)
  })

  it('throws a ConfigError for an unsupported DATABASE_URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'redis://cache' }, [])).toThrow(ConfigError)
  })
})

describe('DATABASE_POOL_SIZE', () => {
  it('defaults to 10 connections for PostgreSQL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/tasks' }, []).database).toEqual({
      kind: 'postgres',
      url: 'postgresql://db/tasks',
      poolSize: 10,
    })
  })

  it('reads DATABASE_POOL_SIZE, and --database-pool-size over it', () => {
    const env = { DATABASE_URL: 'postgres://db/tasks', DATABASE_POOL_SIZE: '25' }
    expect(loadConfig(env, []).database).toMatchObject({ poolSize: 25 })
    expect(loadConfig(env, ['--database-pool-size', '3']).database).toMatchObject({ poolSize: 3 })
  })

  it('rejects a pool size that is not a whole number from 1 to 1000', () => {
    for (const value of ['0', '-1', '2.5', 'ten', '1001', '']) {
      expect(() =>
        loadConfig({ DATABASE_URL: 'postgres://db/tasks', DATABASE_POOL_SIZE: value }, []),
      ).toThrow(ConfigError)
    }
  })

  it('has no pool size for SQLite', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' }, []).database).toEqual({
      kind: 'sqlite',
      filename: '/tmp/x.db',
    })
  })
})

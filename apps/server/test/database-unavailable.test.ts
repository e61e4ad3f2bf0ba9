import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { DatabaseUnavailableError } from '../src/domain/domain-errors.js'
import { SQLite } from '../src/storage/sqlite/sqlite-driver.js'
import { isDatabaseUnavailable, storageError } from '../src/storage/unavailable.js'
import { adminQuery, onPostgres, POSTGRES_URL } from './support/test-database.js'

/** The error `action` rejects with. */
async function failure(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action()
  } catch (error) {
    return error
  }
  throw new Error('expected a failure')
}

describe('isDatabaseUnavailable: which failures are 503 rather than 500', () => {
  it('is true for a closed SQLite handle, false for a constraint violation', () => {
    const sqlite = new SQLite(':memory:')
    sqlite.exec('create table t (id integer primary key)')
    sqlite.exec('insert into t values (1)')
    let constraint: unknown
    try {
      sqlite.exec('insert into t values (1)')
    } catch (error) {
      constraint = error
    }
    expect(isDatabaseUnavailable(constraint)).toBe(false)
    sqlite.close()
    let closed: unknown
    try {
      sqlite.exec('select 1')
    } catch (error) {
      closed = error
    }
    expect(isDatabaseUnavailable(closed)).toBe(true)
  })

  it('is true for a cause wrapped in another error, and for every failure of an AggregateError', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    expect(isDatabaseUnavailable(new Error('query failed', { cause: refused }))).toBe(true)
    expect(isDatabaseUnavailable(new AggregateError([refused, refused]))).toBe(true)
    expect(isDatabaseUnavailable(new Error('query failed', { cause: new Error('bug') }))).toBe(
      false,
    )
  })

  it.each([
    'SQLITE_FULL',
    'SQLITE_IOERR',
    'SQLITE_IOERR_WRITE',
    'SQLITE_CANTOPEN',
    'SQLITE_READONLY_DBMOVED',
    'TASKLANE_DATABASE_FILE_REPLACED',
    '57014',
    '55P03',
  ])(
    'is true for %s: a full disk, an I/O error, a moved file, a statement or lock timeout',
    (code) => {
      expect(isDatabaseUnavailable(Object.assign(new Error('failed'), { code }))).toBe(true)
    },
  )

  it.each(['SQLITE_CONSTRAINT', 'SQLITE_ERROR', 'SQLITE_FULLY', '23505'])(
    'is false for %s',
    (code) => {
      expect(isDatabaseUnavailable(Object.assign(new Error('failed'), { code }))).toBe(false)
    },
  )

  it('is false for anything that is not an Error', () => {
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false)
    expect(isDatabaseUnavailable({ code: '08006' })).toBe(false)
    expect(isDatabaseUnavailable(undefined)).toBe(false)
  })
})

describe('storageError: what storage rejects with', () => {
  it('is a DatabaseUnavailableError, keeping the cause, when a retry may work', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    const error = storageError(refused)
    expect(error).toBeInstanceOf(DatabaseUnavailableError)
    expect((error as Error).cause).toBe(refused)
  })

  it('is the error itself otherwise, or when it already is a DatabaseUnavailableError', () => {
    const bug = new TypeError('x is undefined')
    expect(storageError(bug)).toBe(bug)
    const unavailable = new DatabaseUnavailableError()
    expect(storageError(unavailable)).toBe(unavailable)
  })
})

describe.runIf(onPostgres)('isDatabaseUnavailable with real PostgreSQL failures', () => {
  it('is true when nothing listens at the address (ECONNREFUSED)', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2_000 })
    const error = await failure(() => client.connect())
    expect(isDatabaseUnavailable(error)).toBe(true)
  })

  it('is true when every pooled connection stays busy past the connect timeout', async () => {
    const pool = new pg.Pool({
      connectionString: POSTGRES_URL,
      max: 1,
      connectionTimeoutMillis: 200,
    })
    const held = await pool.connect()
    try {
      const error = await failure(() => pool.query('select 1'))
      expect((error as Error).message).toMatch(/timeout/)
      expect(isDatabaseUnavailable(error)).toBe(true)
    } finally {
      held.release()
      await pool.end()
    }
  })

  it('is true for a query whose backend is terminated (57P01) and for the dead client after it', async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL })
    client.on('error', () => {})
    await client.connect()
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid')
    const sleeping = failure(() => client.query('select pg_sleep(10)'))
    // Wait until the sleep is running, then cut the connection from the server side.
    for (let i = 0; i < 50; i++) {
      const [activity] = await adminQuery<{ state: string }>(
        'select state from pg_stat_activity where pid = $1',
        [rows[0]?.pid],
      )
      if (activity?.state === 'active') break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await adminQuery('select pg_terminate_backend($1)', [rows[0]?.pid])
    const error = await sleeping
    expect(isDatabaseUnavailable(error)).toBe(true)
    expect(isDatabaseUnavailable(await failure(() => client.query('select 1')))).toBe(true)
    await client.end().catch(() => {})
  })

  it('is false for errors in the query itself: syntax, constraint, out of range', async () => {
    for (const text of [
      'selec 1',
      'select 1/0',
      "select 'x'::int",
      'create temporary table t (id int primary key); insert into t values (1), (1)',
    ]) {
      const error = await failure(() => adminQuery(text))
      expect({ text, unavailable: isDatabaseUnavailable(error) }).toEqual({
        text,
        unavailable: false,
      })
    }
  })
})

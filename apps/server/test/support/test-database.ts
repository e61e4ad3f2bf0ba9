import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Task } from '@tasklane/contract'
import { generateNKeysBetween } from 'fractional-indexing'
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely'
import pg from 'pg'
import { inject } from 'vitest'
import { searchText } from '../../src/domain/search-text.js'
import { openStorage, type StorageConfig } from '../../src/storage/open-storage.js'
import { SQLite } from '../../src/storage/sqlite/sqlite-driver.js'
import type { Schema } from '../../src/storage/tables.js'
import { toTask } from '../../src/storage/task-row.js'
import { POSTGRES_URL } from './postgres.js'

/**
 * The backend every server test runs on: `TASKLANE_TEST_DATABASE=postgres` (set by the
 * `server-postgres` Vitest project) selects PostgreSQL, anything else SQLite.
 */
export const backend: StorageConfig['kind'] =
  process.env.TASKLANE_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'

/** True in the `server-postgres` and `server-pgbouncer` projects. */
export const onPostgres = backend === 'postgres'

/**
 * True in the `server-pgbouncer` project: the servers reach each test database through
 * a PgBouncer in transaction mode (global-setup-pgbouncer.ts), and only through it unless
 * a test gives one `directUrl` as well.
 */
export const throughPooler = onPostgres && process.env.TASKLANE_TEST_POOLER === 'pgbouncer'

export { POSTGRES_URL } from './postgres.js'

/** `url` with its connections' search_path set to `schema`. */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url)
  parsed.searchParams.set('options', `-c search_path=${schema}`)
  return parsed.toString()
}

/** Runs one statement as the PostgreSQL superuser on `url` (the test database by default). */
export async function adminQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  values: unknown[] = [],
  url: string = POSTGRES_URL,
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<R>(text, values)).rows
  } finally {
    await client.end()
  }
}

/** bigint columns as numbers, as the server reads them (ids stay below 2^53). */
export const numericInt8: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 && format !== 'binary'
      ? Number
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
}

/** A task as `insertMany` writes it. */
export interface TaskRow {
  readonly name: string
  readonly tag?: string
}

/**
 * A fresh, empty place to keep tasks: a temp SQLite file, or a new PostgreSQL schema.
 * The server reaches it only through the Storage port; a test that needs SQL (a PRAGMA,
 * a bulk insert, a row count, a deleted row) opens a connection of its own with `use`.
 */
export interface TestDatabase {
  /** What openStorage takes; open it as often as needed (restarts, several instances). */
  readonly config: StorageConfig
  /** The same as DATABASE_URL, for a server process: the file's path, or the schema's URL. */
  readonly url: string
  /** PostgreSQL only: the schema's name. */
  readonly schema?: string
  /**
   * PostgreSQL only: a URL straight to PostgreSQL for the same tasks, for a server's
   * DATABASE_DIRECT_URL; `url` itself unless the project goes through a pooler.
   */
  readonly directUrl?: string
  /** Creates the tables (openStorage does too), for SQL before any server has started. */
  migrate(): Promise<void>
  /**
   * Runs `fn` on a connection of the test's own (beside the server's: WAL lets SQLite
   * readers and writers share the file), closed when `fn` settles.
   */
  use<T>(fn: (db: Kysely<Schema>) => Promise<T>): Promise<T>
  /**
   * Inserts `count` new open tasks in one transaction, bypassing the API (fast setup of long
   * lists); resolves with them as the API answers them, in the order made.
   */
  insertMany(count: number, make?: (i: number) => TaskRow): Promise<Task[]>
  /** Deletes the file or drops the schema. */
  drop(): Promise<void>
}

function connect(config: StorageConfig): Kysely<Schema> {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 1, types: numericInt8 })
    return new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) })
  }
  const sqlite = new SQLite(config.filename)
  // The server's writer thread may hold the write lock for a commit: wait for it.
  sqlite.pragma('busy_timeout = 5000')
  return new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) })
}

/**
 * An empty database on the backend under test (or on `kind`). SQLite's file is `file` in a
 * new temporary directory; a path with directories tests that the server creates them.
 */
export async function createTestDatabase({
  kind = backend,
  file = 'tasks.db',
}: {
  kind?: StorageConfig['kind']
  file?: string
} = {}): Promise<TestDatabase> {
  let config: StorageConfig
  let schema: string | undefined
  let directUrl: string | undefined
  let drop: () => Promise<void>
  if (kind === 'postgres' && throughPooler) {
    ;({ config, schema, directUrl, drop } = await pooledSchema())
  } else if (kind === 'postgres') {
    schema = `tl_${randomBytes(6).toString('hex')}`
    await adminQuery(`create schema ${schema}`)
    // A small pool: both projects' test files run side by side on one server.
    config = {
      kind: 'postgres',
      url: withSearchPath(POSTGRES_URL, schema),
      poolSize: 4,
      timeoutMs: 5000,
      preparedStatements: 'auto',
    }
    directUrl = config.url
    drop = async () => {
      await adminQuery(`drop schema if exists ${schema} cascade`)
    }
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'tasklane-test-'))
    config = { kind: 'sqlite', filename: join(dir, file) }
    drop = () => rm(dir, { recursive: true, force: true })
  }
  const use = async <T>(fn: (db: Kysely<Schema>) => Promise<T>): Promise<T> => {
    const db = connect(config)
    try {
      return await fn(db)
    } finally {
      await db.destroy()
    }
  }
  return {
    config,
    url: config.kind === 'postgres' ? config.url : config.filename,
    schema,
    directUrl,
    async migrate() {
      await (await openStorage(config)).close()
    },
    use,
    insertMany: (count, make = (i) => ({ name: `task ${i}` })) =>
      use((db) =>
        db.transaction().execute(async (trx) => {
          // Each a new open task created now, with the next seq, as a create would make it.
          const newest = await trx
            .selectFrom('change_sequence')
            .select('seq')
            .where('id', '=', 1)
            .executeTakeFirstOrThrow()
          const base = Number(newest.seq)
          const now = Date.now()
          const inserted: Task[] = []
          // Each goes last in list 1, as a create puts it.
          const last = await trx
            .selectFrom('tasks')
            .select((eb) => eb.fn.max('position').as('position'))
            .where('list_id', '=', 1)
            .where('status', '<>', 'deleted')
            .executeTakeFirst()
          const positions = generateNKeysBetween(last?.position ?? null, null, count)
          // SQLite binds at most 32766 variables per statement: insert in slices.
          for (let start = 0; start < count; start += 500) {
            const rows = Array.from({ length: Math.min(500, count - start) }, (_, i) => {
              const { name, tag } = make(start + i)
              const seq = base + start + i + 1
              return {
                list_id: 1,
                name,
                tag: tag ?? null,
                status: 'open' as const,
                version: 1,
                created_at: now,
                created_by: 'local',
                updated_at: now,
                updated_by: 'local',
                seq,
                prev_seq: 0,
                created_seq: seq,
                notes: null,
                due: null,
                priority: 0,
                completed_at: null,
                position: positions[start + i] as string,
                search: searchText(name, null),
              }
            })
            const returned = await trx
              .insertInto('tasks')
              .values(rows)
              .returning(['id', 'seq'])
              .execute()
            // Paired by seq: neither database promises RETURNING in the order of VALUES.
            const ids = new Map(returned.map(({ id, seq }) => [Number(seq), Number(id)]))
            if (config.kind === 'sqlite') {
              for (const row of rows) {
                await sql`insert into tasks_search (rowid, search)
                  values (${ids.get(row.seq)}, ${row.search})`.execute(trx)
              }
            }
            for (const row of rows)
              inserted.push(toTask({ ...row, id: ids.get(row.seq) as number }))
          }
          await trx
            .updateTable('change_sequence')
            .set({ seq: base + count })
            .where('id', '=', 1)
            .execute()
          return inserted
        }),
      ),
    drop,
  }
}

/** `url` as `user`, who connects without a password (the tests' trust auth). */
function asUser(url: string, user: string): string {
  const parsed = new URL(url)
  parsed.username = user
  parsed.password = ''
  return parsed.toString()
}

/**
 * A new schema reached through the project's PgBouncer. PgBouncer passes no `options`
 * startup parameter, so the schema cannot come with the URL as `-c search_path` (nor be SET
 * for a session: the next transaction may run on another server connection). Each test
 * database is a role of its own instead, owning its schema and with it as its search_path
 * (ALTER ROLE … SET), which PostgreSQL applies to every session PgBouncer opens for that
 * role: the way a deployment keeps its tables in a schema of its own behind a pooler.
 * PgBouncer keeps a pool per role, so the files' servers never share server connections.
 */
async function pooledSchema() {
  const role = `tl_${randomBytes(6).toString('hex')}`
  await adminQuery(`create role ${role} login`)
  await adminQuery(`create schema ${role} authorization ${role}`)
  await adminQuery(`alter role ${role} set search_path = ${role}`)
  const url = asUser(
    `postgres://127.0.0.1:${inject('pgbouncerPort')}${new URL(POSTGRES_URL).pathname}`,
    role,
  )
  return {
    config: {
      kind: 'postgres',
      url,
      poolSize: 4,
      timeoutMs: 5000,
      preparedStatements: 'auto',
    } satisfies StorageConfig as StorageConfig,
    schema: role,
    directUrl: asUser(POSTGRES_URL, role),
    async drop() {
      await adminQuery(`drop schema if exists ${role} cascade`)
      // The server connections PgBouncer still keeps for the role.
      await adminQuery(
        'select pg_terminate_backend(pid) from pg_stat_activity where usename = $1',
        [role],
      )
      await adminQuery(`drop role if exists ${role}`)
    },
  }
}

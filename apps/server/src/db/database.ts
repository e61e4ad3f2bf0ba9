import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Task } from '@tasklane/contract'
import SQLite from 'better-sqlite3'
import { Kysely, type SqliteDatabase, SqliteDialect } from 'kysely'
import type { DatabaseConfig } from '../config.js'
import { applyWrites } from '../tasks/repository.js'
import { migrate } from './migrations.js'
import { openPostgres } from './postgres.js'
import type { Schema } from './schema.js'
import { createSqliteWriter } from './sqlite-writer.js'

/** One create of a batch: the task, and its Idempotency-Key with a digest of the body. */
export interface TaskWrite {
  readonly name: string
  readonly tag?: string | undefined
  readonly key?: string | undefined
  readonly fingerprint: string
}

/**
 * What a create came to: a new task, the task its key created before (`replayed`), or a
 * key already used with another body.
 */
export type WriteOutcome = { task: Task; replayed: boolean } | 'conflict'

/** An open, migrated database. */
export interface Database {
  readonly kind: DatabaseConfig['kind']
  /** For reads and migrations; creates go through writeTasks. */
  readonly db: Kysely<Schema>
  /**
   * Commits a batch of creates in one transaction (one fsync), checking and storing
   * each Idempotency-Key with its task. Keys created before `notBefore` have expired.
   * Ids are assigned in commit order, across every server on the database.
   */
  writeTasks(items: TaskWrite[], now: number, notBefore: number): Promise<WriteOutcome[]>
  close(): Promise<void>
}

function openSqlite(filename: string): SQLite.Database {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true })
  const sqlite = new SQLite(filename)
  sqlite.pragma('journal_mode = WAL')
  // FULL: a commit reaches the disk before the 201 is sent, so it survives power loss.
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('busy_timeout = 5000')
  const journal = sqlite.pragma('journal_mode', { simple: true })
  const synchronous = sqlite.pragma('synchronous', { simple: true })
  // A 201 promises a durable commit: refuse to start if SQLite would not give one.
  if ((filename !== ':memory:' && journal !== 'wal') || synchronous !== 2) {
    sqlite.close()
    throw new Error(
      `SQLite did not accept WAL with synchronous=FULL (got journal_mode=${journal}, synchronous=${synchronous}).`,
    )
  }
  return sqlite
}

/**
 * better-sqlite3 compiles SQL on every `prepare`, and Kysely prepares every query it
 * runs. The SQL of a query shape never changes (values are bound parameters), so each
 * statement is compiled once and reused. The cache is bounded in case shapes multiply.
 */
function withStatementCache(sqlite: SQLite.Database, max = 256): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>()
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql)
      if (statement === undefined) {
        if (statements.size >= max) statements.clear()
        statement = sqlite.prepare(sql)
        statements.set(sql, statement)
      }
      return statement
    },
  }
}

/** Opens the configured database and runs pending migrations. */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.kind === 'postgres') return openPostgres(config.url, config.poolSize)
  const sqlite = openSqlite(config.filename)
  const db = new Kysely<Schema>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  })
  try {
    await migrate(db, 'sqlite')
  } catch (error) {
    await db.destroy()
    throw error
  }
  if (config.filename === ':memory:') {
    // A second connection would see another, empty database: write on this one.
    return {
      kind: 'sqlite',
      db,
      writeTasks: (items, now, notBefore) =>
        db.transaction().execute((trx) => applyWrites(trx, items, now, notBefore)),
      close: () => db.destroy(),
    }
  }
  const writer = createSqliteWriter(config.filename)
  return {
    kind: 'sqlite',
    db,
    writeTasks: (items, now, notBefore) => writer.write(items, now, notBefore),
    async close() {
      await writer.close()
      await db.destroy()
    },
  }
}

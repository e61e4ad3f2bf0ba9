import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, type SqliteDatabase, SqliteDialect, type Transaction } from 'kysely'
import type { DatabaseConfig } from '../config.js'
import { migrate } from './migrations.js'
import { openPostgres } from './postgres.js'
import type { Schema } from './schema.js'

/** An open, migrated database. */
export interface Database {
  readonly kind: DatabaseConfig['kind']
  readonly db: Kysely<Schema>
  /**
   * Called first in every write transaction: writers take turns, so ids are assigned
   * in commit order. SQLite has one writer at a time already.
   */
  serializeWrites(trx: Transaction<Schema>): Promise<void>
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
  return {
    kind: 'sqlite',
    db,
    serializeWrites: async () => {},
    close: () => db.destroy(),
  }
}

import type { Worker } from 'node:worker_threads'
import type SQLite from 'better-sqlite3'
import { Kysely, type SqliteDatabase, SqliteDialect } from 'kysely'
import type { RunQuery } from '../compiled-query.js'
import { StorageEvents } from '../events.js'
import { kyselyStorage } from '../kysely-storage.js'
import { migrate } from '../migrations.js'
import { createReads } from '../queries.js'
import type { Schema } from '../schema.js'
import type { Storage } from '../storage.js'
import { createBatchWriter } from './batch.js'
import { openConnection } from './connection.js'
import { fileIdentity } from './file-identity.js'
import { createSqliteWriter } from './writer.js'

/** The SQLite Storage, with a way to reach its writer thread. */
export interface SqliteStorage extends Storage {
  /**
   * The writer thread now running, undefined while it is restarted (or for `:memory:`,
   * which has none). For tests that kill it to see the server recover; nothing else.
   */
  writerThread(): Worker | undefined
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

/**
 * The reads' statements run on the cached prepared statement directly: synchronous, so no
 * connection to acquire and nothing to wait for (Kysely's driver would take its mutex).
 */
function runOn(database: SqliteDatabase): RunQuery {
  return <Row>(sql: string, parameters: readonly unknown[]) =>
    Promise.resolve(database.prepare(sql).all(parameters) as Row[])
}

/**
 * Opens an SQLite file (created with its directory if missing), migrates it, and returns
 * the Storage: reads on this thread's connection, creates committed by a writer thread
 * with a connection of its own. `:memory:` is one database per connection, so there the
 * batches are committed on the reading connection, by the same code.
 */
export async function openSqlite(filename: string): Promise<SqliteStorage> {
  const sqlite = openConnection(filename)
  const database = withStatementCache(sqlite)
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database }) })
  const reads = createReads(db, runOn(database))
  try {
    await migrate(db, 'sqlite')
  } catch (error) {
    await db.destroy()
    throw error
  }
  if (filename === ':memory:') {
    const batches = createBatchWriter(sqlite)
    const storage = kyselyStorage({
      kind: 'sqlite',
      db,
      reads,
      writeTasks: batches.commit,
      probeWrite: batches.probe,
      close: () => db.destroy(),
    })
    return { ...storage, writerThread: () => undefined }
  }
  // The file as opened: the writer thread checks every commit against it.
  const identity = fileIdentity(filename)
  if (identity === undefined) {
    await db.destroy()
    throw new Error(`The database file ${filename} vanished as it was opened.`)
  }
  const events = new StorageEvents()
  const writer = createSqliteWriter(filename, identity, events.report)
  const storage = kyselyStorage({
    kind: 'sqlite',
    db,
    reads,
    // Commits happen on the writer thread's connection; what this one reads is committed.
    keepRecent: true,
    writeTasks: writer.write,
    probeWrite: writer.probe,
    events,
    async close() {
      await writer.close()
      await db.destroy()
    },
  })
  return { ...storage, writerThread: writer.thread }
}

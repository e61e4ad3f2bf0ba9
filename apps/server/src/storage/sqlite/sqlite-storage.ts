import type { Worker } from 'node:worker_threads'
import { Kysely, SqliteDialect } from 'kysely'
import type { Backend } from '../backend.js'
import { SQLITE_DESCRIPTORS } from '../descriptors.js'
import { StorageEvents } from '../events.js'
import { migrate } from '../migrations/migrator.js'
import { ReadShapes, Reads } from '../reads.js'
import type { Snapshot } from '../storage.js'
import type { Schema } from '../tables.js'
import { TaskStorage } from '../task-storage.js'
import { fileIdentity } from './file-identity.js'
import { SqliteBatchWriter } from './sqlite-batch-writer.js'
import { openConnection } from './sqlite-connection.js'
import { SqliteSnapshots } from './sqlite-snapshots.js'
import { StatementCache } from './statement-cache.js'
import { SqliteWriterThread } from './writer-thread.js'

/** The SQLite Storage, with a way to reach its writer thread. */
export class SqliteStorage extends TaskStorage {
  readonly #writer: SqliteWriterThread | undefined

  constructor(backend: Backend, writer?: SqliteWriterThread) {
    super(backend)
    this.#writer = writer
  }

  /**
   * The writer thread now running, undefined while it is restarted (or for `:memory:`,
   * which has none). For tests that kill it to see the server recover; nothing else.
   */
  writerThread(): Worker | undefined {
    return this.#writer?.thread()
  }
}

/**
 * `:memory:` is one database per connection: no other connection can hold a snapshot of it,
 * so a streamed listing reads the live database chunk by chunk (no isolation between them).
 */
function liveSnapshot(reads: Reads): () => Promise<Snapshot> {
  return async () => ({
    ...(await reads.sequence()),
    readTasks: (filter, limit) => reads.selectTasks(filter, limit),
    readIds: (filter, limit) => reads.selectIds(filter, limit),
    close: async () => {},
  })
}

/**
 * Opens an SQLite file (created with its directory if missing), migrates it, and returns
 * the Storage: reads on this thread's connection, writes committed by a writer thread with
 * a connection of its own, streamed listings on snapshot connections. `:memory:` is one
 * database per connection, so there the batches are committed on the reading connection,
 * by the same code.
 */
export async function openSqlite(filename: string): Promise<SqliteStorage> {
  const database = new StatementCache(openConnection(filename))
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database }) })
  const shapes = new ReadShapes(db, 'sqlite')
  const reads = new Reads(shapes, database.run)
  try {
    await migrate(db, 'sqlite')
  } catch (error) {
    await db.destroy()
    throw error
  }
  const common = {
    kind: 'sqlite',
    db,
    reads,
    maxSnapshots: Number.POSITIVE_INFINITY,
    descriptors: SQLITE_DESCRIPTORS,
  } as const
  if (filename === ':memory:') {
    const batches = new SqliteBatchWriter(database.connection)
    return new SqliteStorage({
      ...common,
      // Committed on this thread, one after the other.
      batchesInFlight: 2,
      write: (items, now, notBefore) => batches.commit(items, now, notBefore),
      writeAccess: (write, now, notBefore) => batches.access(write, now, notBefore),
      probeWrite: () => batches.probe(),
      openSnapshot: liveSnapshot(reads),
      close: () => db.destroy(),
    })
  }
  // The file as opened: the writer thread checks every commit against it.
  const identity = fileIdentity(filename)
  if (identity === undefined) {
    await db.destroy()
    throw new Error(`The database file ${filename} vanished as it was opened.`)
  }
  const events = new StorageEvents()
  const writer = new SqliteWriterThread(filename, identity, events.report)
  const snapshots = new SqliteSnapshots(filename, shapes)
  return new SqliteStorage(
    {
      ...common,
      // The writer thread takes every batch that has arrived into its next commit.
      batchesInFlight: 64,
      write: (items, now, notBefore) => writer.write(items, now, notBefore),
      writeAccess: (write, now, notBefore) => writer.access(write, now, notBefore),
      probeWrite: () => writer.probe(),
      openSnapshot: () => snapshots.open(),
      events,
      async close() {
        await writer.close()
        snapshots.close()
        await db.destroy()
      },
    },
    writer,
  )
}

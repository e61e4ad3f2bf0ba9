import { DatabaseUnavailableError } from '../../domain/domain-errors.js'
import { type ReadShapes, Reads, snapshotOf } from '../reads.js'
import type { Snapshot } from '../storage.js'
import { openConnection } from './sqlite-connection.js'
import { StatementCache } from './statement-cache.js'

/** Idle snapshot connections kept open for the next streamed listing. */
const IDLE_MAX = 4

/**
 * Snapshots for listings read in several queries (streamed lists): each on a connection of
 * its own holding a read transaction, which WAL keeps at the database as it was when the
 * transaction's first read ran, whatever the writer thread commits meanwhile. Connections
 * are reused; a few idle ones stay open.
 */
export class SqliteSnapshots {
  readonly #filename: string
  readonly #shapes: ReadShapes
  readonly #idle: StatementCache[] = []
  #closed = false

  constructor(filename: string, shapes: ReadShapes) {
    this.#filename = filename
    this.#shapes = shapes
  }

  async open(): Promise<Snapshot> {
    // The storage is closed: a new connection would serve reads it no longer should.
    if (this.#closed) throw new DatabaseUnavailableError()
    const connection =
      this.#idle.pop() ?? new StatementCache(openConnection(this.#filename, { mustExist: true }))
    try {
      connection.prepare('BEGIN').run()
      const reads = new Reads(this.#shapes, connection.run)
      return await snapshotOf(reads, () => this.#release(connection))
    } catch (error) {
      this.#discard(connection)
      throw error
    }
  }

  /** Closes the idle connections; those in use close as their snapshots end. */
  close(): void {
    this.#closed = true
    for (const connection of this.#idle.splice(0)) connection.close()
  }

  #release(connection: StatementCache): void {
    try {
      if (connection.connection.inTransaction) connection.prepare('COMMIT').run()
    } catch {
      this.#discard(connection)
      return
    }
    if (this.#closed || this.#idle.length >= IDLE_MAX) connection.close()
    else this.#idle.push(connection)
  }

  #discard(connection: StatementCache): void {
    try {
      connection.close()
    } catch {}
  }
}

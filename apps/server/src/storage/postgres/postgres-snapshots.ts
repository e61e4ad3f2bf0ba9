import type pg from 'pg'
import type { RunQuery } from '../compiled-query.js'
import { type ReadShapes, Reads, snapshotOf } from '../reads.js'
import type { Snapshot } from '../storage.js'

/**
 * Begins a snapshot's transaction on `client` and resolves with how to run its reads there:
 * the connection mode decides (open.ts).
 */
export type BeginSnapshot = (client: pg.PoolClient) => Promise<RunQuery>

/** What opens a snapshot: read-only, and every read sees the database as of the first. */
export const BEGIN_SNAPSHOT = 'begin isolation level repeatable read read only'

/**
 * Snapshots for listings read in several queries (streamed lists): each a read-only
 * REPEATABLE READ transaction on a connection of its own, from a pool kept apart from the
 * requests' so that long downloads never starve them, which sees the database as it was at
 * the transaction's first read. Through a transaction-mode pooler the transaction keeps its
 * server connection until it ends, so its reads may be unnamed statements on it.
 */
export class PostgresSnapshots {
  readonly #pool: pg.Pool
  readonly #shapes: ReadShapes
  readonly #begin: BeginSnapshot
  #closing: Promise<void> | undefined

  constructor(pool: pg.Pool, shapes: ReadShapes, begin: BeginSnapshot) {
    this.#pool = pool
    // As on the requests' pool (open.ts): a connection that dies while idle or between two
    // reads (a restart, pg_terminate_backend) fails its query; without these listeners the
    // 'error' event would crash the process instead.
    pool.on('error', () => {})
    pool.on('connect', (client) => client.on('error', () => {}))
    this.#shapes = shapes
    this.#begin = begin
  }

  async open(): Promise<Snapshot> {
    const client = await this.#pool.connect()
    try {
      const reads = new Reads(this.#shapes, await this.#begin(client))
      return await snapshotOf(reads, async () => {
        try {
          await client.query('commit')
          client.release()
        } catch (error) {
          // A connection that cannot end its transaction is not handed out again.
          client.release(error as Error)
        }
      })
    } catch (error) {
      client.release(error as Error)
      throw error
    }
  }

  /** Ends the pool; closing again (a storage closed twice) waits for the same end. */
  close(): Promise<void> {
    this.#closing ??= this.#pool.end()
    return this.#closing
  }
}

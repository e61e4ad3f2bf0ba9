import {
  Kysely,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
} from 'kysely'
import type pg from 'pg'
import type { AccessWrite, AccessWritten } from '../access-port.js'
import { applyAccessWrite } from '../access-writes.js'
import type { Schema } from '../tables.js'

/** How an access write's transaction is set up. */
export interface AccessWriterOptions {
  /** `set local` statements run first (the timeouts: they end with the transaction). */
  readonly settings: readonly string[]
  /** Where commits are announced, as the write function does. */
  readonly channel: string
  /** The first key of the advisory lock that orders every writer. */
  readonly lockClass: number
}

/**
 * One connection as Kysely takes a pool: every query Kysely sends in the access write goes
 * to it, inside the transaction begun on it; it is handed back by whoever began it.
 */
function onlyClient(client: pg.PoolClient): PostgresPool {
  const connection = {
    query: <R>(sql: string, parameters: readonly unknown[]) =>
      client.query(sql, [...parameters]) as unknown as Promise<PostgresQueryResult<R>>,
    release: () => {},
  } as PostgresPoolClient
  return { connect: async () => connection, end: async () => {} }
}

/**
 * Access writes on PostgreSQL: each a transaction of its own on a connection of `pool`,
 * taking the same ordering lock as the task writes (so seqs follow commit order across
 * instances), with its timeouts set locally (it runs the same through a transaction-mode
 * pooler), and announcing its newest seq on the commit channel, as the write function does.
 */
export function postgresAccessWriter(pool: pg.Pool, options: AccessWriterOptions) {
  return async (write: AccessWrite, now: number, notBefore: number): Promise<AccessWritten> => {
    const client = await pool.connect()
    try {
      await client.query('begin')
      for (const setting of options.settings) await client.query(setting)
      await client.query("select pg_advisory_xact_lock($1, 'tasks'::regclass::oid::int)", [
        options.lockClass,
      ])
      const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: onlyClient(client) }) })
      const written = await applyAccessWrite(db, write, now, notBefore)
      if (written.newest > 0) {
        await client.query('select pg_notify($1, $2)', [options.channel, String(written.newest)])
      }
      await client.query('commit')
      client.release()
      return written
    } catch (error) {
      try {
        await client.query('rollback')
        client.release()
      } catch {
        client.release(error as Error)
      }
      throw error
    }
  }
}

import type pg from 'pg'
import type { RunQuery } from '../compiled-query.js'

/**
 * Runs `text` as a transaction of its own, after `settings` (`set local` statements, which end
 * with it), and resolves with its result. `begin`, the settings, the statement and `commit`
 * are written together and answered in order: one round trip on a client in pipeline mode
 * (node-postgres' `pipeline: true`), the only way a statement's timeouts can be its own
 * without a session, through a transaction-mode pooler. Rejects with the first failure: the
 * transaction then rolls back (the `commit` of an aborted transaction is a rollback).
 */
export async function inOwnTransaction(
  client: pg.ClientBase,
  settings: readonly string[],
  text: string,
  values: readonly unknown[],
): Promise<pg.QueryResult> {
  const sent = [
    client.query('begin'),
    ...settings.map((setting) => client.query(setting)),
    client.query(text, [...values]),
    client.query('commit'),
  ]
  const settled = await Promise.allSettled(sent)
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason
  return (settled.at(-2) as PromiseFulfilledResult<pg.QueryResult>).value
}

/**
 * Runs each statement on a connection of `pool` (in pipeline mode) as a transaction of its
 * own under `settings`: nothing of it (a prepared statement, a setting) stays on the
 * connection, so any statement may run on any server connection a pooler picks.
 */
export function ownTransactionQueries(pool: pg.Pool, settings: readonly string[]): RunQuery {
  return async <Row>(text: string, parameters: readonly unknown[]) => {
    const client = await pool.connect()
    try {
      const { rows } = await inOwnTransaction(client, settings, text, parameters)
      client.release()
      return rows as Row[]
    } catch (error) {
      // As pg.Pool#query does: a connection that failed is not handed out again.
      client.release(error as Error)
      throw error
    }
  }
}

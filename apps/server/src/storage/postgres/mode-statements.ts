import type { PostgresPool } from 'kysely'
import type pg from 'pg'
import type { RunQuery } from '../compiled-query.js'
import type { ConnectionMode } from './connection-mode.js'
import { ownTransactionQueries } from './own-transaction.js'
import { BEGIN_SNAPSHOT, type BeginSnapshot } from './postgres-snapshots.js'
import { WRITE_STATEMENT_NAMES } from './postgres-write-statements.js'
import { preparedQueries, StatementNames } from './prepared.js'
import { localTimeouts, sessionTimeouts, type Timeouts } from './timeouts.js'
import { TransactionPool } from './transaction-pool.js'

/** How statements run on the storage's pools, as the connection mode requires. */
export interface ModeStatements {
  /** What a pool's connections are opened with, beyond its URL and size. */
  poolOptions(timeouts: Timeouts): pg.PoolConfig
  /** Runs statements on `pool`, each bounded by the requests' timeouts. */
  run(pool: pg.Pool): RunQuery
  /** `pool` as Kysely takes it, for the maintenance statements (purge, ping, probe). */
  kysely(pool: pg.Pool): PostgresPool
  /** Begins a snapshot's transaction on a connection of the snapshots' pool. */
  readonly beginSnapshot: BeginSnapshot
}

/**
 * On sessions: named prepared statements (each connection plans a statement once) and the
 * timeouts set at login.
 */
function sessionStatements(): ModeStatements {
  const names = new StatementNames(WRITE_STATEMENT_NAMES)
  return {
    poolOptions: (timeouts) => sessionTimeouts(timeouts),
    run: (pool) => preparedQueries(pool, names),
    kysely: (pool) => pool,
    async beginSnapshot(client) {
      await client.query(BEGIN_SNAPSHOT)
      return preparedQueries(client, names)
    },
  }
}

/**
 * Through a transaction-mode pooler: each statement a transaction of its own with its
 * timeouts set in it, begin, settings, statement and commit pipelined in one round trip
 * (own-transaction.ts); nothing prepared.
 */
function transactionStatements(requests: Timeouts, snapshots: Timeouts): ModeStatements {
  const settings = localTimeouts(requests)
  return {
    poolOptions: () => ({ pipeline: true }),
    run: (pool) => ownTransactionQueries(pool, settings),
    kysely: (pool) => new TransactionPool(pool, settings),
    async beginSnapshot(client) {
      // The transaction keeps its server connection until it ends: its reads need no more.
      await Promise.all(
        [BEGIN_SNAPSHOT, ...localTimeouts(snapshots)].map((text) => client.query(text)),
      )
      return async <Row>(text: string, values: readonly unknown[]) =>
        (await client.query(text, [...values])).rows as Row[]
    },
  }
}

/** The statements of `mode`, with the requests' and the snapshots' timeouts. */
export function modeStatements(
  mode: ConnectionMode,
  requests: Timeouts,
  snapshots: Timeouts,
): ModeStatements {
  return mode === 'session' ? sessionStatements() : transactionStatements(requests, snapshots)
}

import type pg from 'pg'

/** The waits PostgreSQL itself bounds for a connection's statements, in ms. */
export interface Timeouts {
  /** A statement (statement_timeout) and a lock (lock_timeout). */
  readonly waitMs: number
  /** A transaction left open between two statements (idle_in_transaction_session_timeout). */
  readonly idleInTransactionMs: number
}

/**
 * The timeouts as connection parameters: sent at login, they hold for the whole session. Only
 * for sessions of our own: a transaction-mode pooler refuses them (PgBouncer: "unsupported
 * startup parameter"), or, told to ignore them, drops them without a word.
 */
export function sessionTimeouts({ waitMs, idleInTransactionMs }: Timeouts): pg.PoolConfig {
  return {
    statement_timeout: waitMs,
    lock_timeout: waitMs,
    idle_in_transaction_session_timeout: idleInTransactionMs,
  }
}

/**
 * The timeouts as `set local` statements, to run first in a transaction: they end with it, so
 * they never outlive it on a server connection that a pooler hands to someone else next.
 */
export function localTimeouts({ waitMs, idleInTransactionMs }: Timeouts): readonly string[] {
  const ms = (value: number) => {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Not a timeout: ${value}`)
    return value
  }
  return [
    `set local statement_timeout = ${ms(waitMs)}`,
    `set local lock_timeout = ${ms(waitMs)}`,
    `set local idle_in_transaction_session_timeout = ${ms(idleInTransactionMs)}`,
  ]
}

import { DatabaseUnavailableError } from '../domain/domain-errors.js'

/**
 * SQLSTATEs that mean the database cannot serve us right now, not that the query is
 * wrong: class 08 (connection exception), 53 (insufficient resources: too many
 * connections, disk full), 57P01–57P03 (shut down, crashed, starting up), 57014 (a
 * statement cancelled, by statement_timeout) and 55P03 (a lock not had within lock_timeout).
 */
const UNAVAILABLE_SQLSTATE = /^(08|53)|^57P0[1-3]$|^57014$|^55P03$/

/**
 * SQLite result codes (better-sqlite3 names extended codes, SQLITE_IOERR_WRITE say, by
 * their primary one and a suffix): the disk is full, the file cannot be read or written,
 * opened, or was moved or deleted under the connection.
 */
const UNAVAILABLE_SQLITE =
  /^SQLITE_(FULL|IOERR|CANTOPEN|READONLY_DBMOVED|READONLY_CANTINIT|READONLY_DIRECTORY)(_|$)/

/** Said by the SQLite writer when the file at the configured path is no longer the open one. */
export const DATABASE_FILE_REPLACED = 'TASKLANE_DATABASE_FILE_REPLACED'

/** Errors of the socket or of node-postgres' pool, which carry no SQLSTATE. */
const UNAVAILABLE_SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // SQLite: another writer held the lock past busy_timeout.
  'SQLITE_BUSY',
  DATABASE_FILE_REPLACED,
])

const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'is not currently accepting connections',
  'the database system is',
  // The handle was closed (the server is shutting down): Kysely's, better-sqlite3's and
  // node-postgres' pool's words (the reads and writes use the pool directly).
  'driver has already been destroyed',
  'The database connection is not open',
  'Cannot use a pool after calling end on the pool',
  // node-postgres' query_timeout: the server did not answer in time.
  'Query read timeout',
  // PgBouncer's own refusals, whatever SQLSTATE a release sends them with (1.18: 08P01):
  // its client slots are full, no server connection freed up in time, its logins to
  // PostgreSQL fail (and it then refuses for server_login_retry), a server connection died
  // under a query, its query_timeout or idle_transaction_timeout ended the transaction, an
  // operator paused, killed or reconfigured the database.
  'no more connections allowed',
  'query_wait_timeout',
  'server_login_retry',
  'pgbouncer cannot connect to server',
  'client_login_timeout',
  'server conn crashed',
  'query timeout',
  'idle transaction timeout',
  'database removed',
  'database configuration changed',
]

/**
 * True when `error` says the database is unreachable or refusing work, so the request
 * may succeed if retried later (503), rather than a fault in the server (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') {
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE.test(code)) return true
    if (UNAVAILABLE_SYSTEM_CODES.has(code) || UNAVAILABLE_SQLITE.test(code)) return true
  }
  if (UNAVAILABLE_MESSAGES.some((fragment) => error.message.includes(fragment))) return true
  // AggregateError (e.g. every address of a host refused) and wrapped causes.
  const causes = error instanceof AggregateError ? error.errors : [error.cause]
  return causes.some((cause) => cause !== error && isDatabaseUnavailable(cause))
}

/** The error to throw for a storage failure: DatabaseUnavailableError when a retry may work. */
export function storageError(error: unknown): unknown {
  return error instanceof DatabaseUnavailableError || !isDatabaseUnavailable(error)
    ? error
    : new DatabaseUnavailableError({ cause: error })
}

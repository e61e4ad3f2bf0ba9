import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { kyselyStorage } from '../kysely-storage.js'
import { migrate } from '../migrations.js'
import { createReads } from '../queries.js'
import type { Schema } from '../schema.js'
import type { Storage } from '../storage.js'
import { writeBatch } from '../write-batch.js'
import { WRITE_PROBE_SQL } from '../write-probe.js'
import { postgresStatements } from './batch.js'
import { listenForCommits } from './commit-listener.js'
import { preparedQueries } from './prepared.js'

/** How long a wait for the database may last (a connection, a lock, a statement) unless told otherwise. */
export const DATABASE_TIMEOUT_MS = 5_000

/** `tasl`: the first key of the two-key advisory lock that serializes task writers. */
const WRITE_LOCK_CLASS = 0x7461_736c

const INT8_OID = 20

/**
 * bigint (int8) columns arrive as JS numbers instead of node-postgres' default strings.
 * Exact: the tasks id sequence stops at 2^53-1 (migration 0003), and counts stay far below.
 * Set on this pool only, so other users of `pg` in the process keep their parsers.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
}

/** How often the newest id is read besides the notifications, unless told otherwise. */
const COMMIT_CHECK_MS = 1_000

/**
 * Opens a pool on `url`, runs pending migrations (several instances starting together
 * is safe: Kysely's Migrator holds a PostgreSQL advisory lock while it migrates) and
 * returns the Storage. `commitCheckMs`: how often the newest id is read as the safety net
 * under the commit notifications. `timeoutMs` bounds every wait: for a pooled connection,
 * for a lock (lock_timeout), for a statement (statement_timeout), and, for a server that
 * does not answer at all, the call itself; each then fails with DatabaseUnavailableError.
 *
 * @example
 * const storage = await openPostgres('postgres://tasklane@db/tasklane', 10)
 */
export async function openPostgres(
  url: string,
  poolSize: number,
  {
    commitCheckMs = COMMIT_CHECK_MS,
    timeoutMs = DATABASE_TIMEOUT_MS,
  }: { commitCheckMs?: number; timeoutMs?: number | undefined } = {},
): Promise<Storage> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: timeoutMs,
    // Enforced by the server: it cancels the statement and the request gets a 503.
    statement_timeout: timeoutMs,
    lock_timeout: timeoutMs,
    // Enforced here, for a server that does not answer at all: frees the pooled client.
    query_timeout: timeoutMs + 1_000,
    keepAlive: true,
    application_name: 'tasklane',
    // A writer that stalls mid-transaction must not hold the write lock for long.
    idle_in_transaction_session_timeout: 10_000,
    types,
  })
  // A connection can die while idle or between two statements (restart, failover,
  // pg_terminate_backend). The query in flight fails and the pool drops the client;
  // without these listeners the 'error' event would crash the process instead.
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))

  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) })
  let channel: string
  try {
    await migrate(db, 'postgres')
    // One channel per deployment, keyed like the write lock by the tasks table's oid, so
    // that deployments in other schemas of the database do not wake each other.
    const { rows } = await sql<{
      oid: number
    }>`select 'tasks'::regclass::oid::int as oid`.execute(db)
    channel = `tasklane_tasks_${rows[0]?.oid}`
  } catch (error) {
    await db.destroy()
    throw error
  }
  const reads = createReads(db, preparedQueries(pool))
  const statements = postgresStatements(pool, channel, WRITE_LOCK_CLASS)
  return kyselyStorage({
    kind: 'postgres',
    db,
    reads,
    // Writers on every instance take turns: the identity value is drawn after the lock
    // is held and the lock is released only once the commit is visible, so ids appear
    // in commit order and a reader paging with `after` never skips a task. The lock is
    // keyed by the tasks table's oid, so deployments in other schemas do not contend.
    // A batch is at most two round trips: its keys looked up, then one statement.
    writeTasks: (items, now, notBefore) => writeBatch(statements, items, now, notBefore),
    probeWrite: async () => void (await sql.raw(WRITE_PROBE_SQL).execute(db)),
    // A little past the database's own timeouts, so that it normally answers first (and
    // the statement is known to have been cancelled); this bound is for a silent server.
    timeoutMs: timeoutMs + 500,
    watchCommits: listenForCommits({
      url,
      channel,
      newestId: reads.newestId,
      checkMs: commitCheckMs,
    }),
    close: () => db.destroy(),
  })
}

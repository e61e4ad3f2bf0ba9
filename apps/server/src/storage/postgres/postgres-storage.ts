import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { postgresDescriptors } from '../descriptors.js'
import { ReadShapes, Reads } from '../reads.js'
import type { Storage, StorageConfig } from '../storage.js'
import type { Schema } from '../tables.js'
import { TaskStorage } from '../task-storage.js'
import { orderedInTurn, writeBatch } from '../write-plan.js'
import { WRITE_PROBE_SQL } from '../write-probe.js'
import { listenForCommits } from './commit-listener.js'
import { connectionMode } from './connection-mode.js'
import { int8Numbers } from './int8-numbers.js'
import { migratePostgres } from './migrate.js'
import { modeStatements } from './mode-statements.js'
import { postgresAccessWriter } from './postgres-access-writer.js'
import { PostgresSnapshots } from './postgres-snapshots.js'
import { postgresStatements } from './postgres-write-statements.js'
import { localTimeouts, type Timeouts } from './timeouts.js'

/** `tasl`: the first key of the two-key advisory lock that serializes task writers. */
const WRITE_LOCK_CLASS = 0x7461_736c

/** How often the newest seq is read besides the notifications, unless told otherwise. */
const COMMIT_CHECK_MS = 1_000

/**
 * How often it is read when no connection can LISTEN, unless told otherwise: a change
 * reaches every instance's feed within this and a round trip, well within the feed's 1 s.
 */
const COMMIT_POLL_MS = 250

/** A writer that stalls mid-transaction must not hold the write lock for long. */
const IDLE_IN_TRANSACTION_MS = 10_000

/** A snapshot waits for its reader between reads; the stalled-reader limit ends it. */
const SNAPSHOT_IDLE_MS = 5 * 60_000

/** A pool whose connections may die while idle or between two statements. */
function newPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config)
  // Restart, failover, pg_terminate_backend, a pooler closing its side: the query in flight
  // fails and the pool drops the client; without these listeners the 'error' event would
  // crash the process instead.
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  return pool
}

/**
 * Opens the storage on PostgreSQL: detects (or is told) whether `url` goes through a
 * transaction-mode pooler, runs pending migrations (on `directUrl` when given), and returns
 * the Storage. Every wait is bounded by `timeoutMs`: for a pooled connection, for a lock
 * (lock_timeout), for a statement (statement_timeout), and, for a server that does not answer
 * at all, the call itself; each then fails with DatabaseUnavailableError. Those timeouts are
 * set once per connection on sessions, and in each transaction through a pooler, which also
 * gets no prepared statements. The change feed LISTENs on `directUrl`, else on `url` when it
 * is a session, else reads the newest seq every `commitCheckMs` (250 ms) instead.
 *
 * @example
 * const storage = await openPostgres({ kind: 'postgres', url: 'postgres://tasklane@db/tasklane', poolSize: 10, timeoutMs: 5000, preparedStatements: 'auto' })
 */
export async function openPostgres(
  config: Extract<StorageConfig, { kind: 'postgres' }>,
): Promise<Storage> {
  const { url, directUrl, poolSize, timeoutMs } = config
  const mode = await connectionMode(url, config.preparedStatements, timeoutMs)
  const requests = { waitMs: timeoutMs, idleInTransactionMs: IDLE_IN_TRANSACTION_MS }
  const snapshotTimeouts = { waitMs: timeoutMs, idleInTransactionMs: SNAPSHOT_IDLE_MS }
  const statements = modeStatements(mode, requests, snapshotTimeouts)
  const poolOptions = (name: string, timeouts: Timeouts): pg.PoolConfig => ({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: timeoutMs,
    // Enforced here, for a server that does not answer at all: frees the pooled client.
    query_timeout: timeoutMs + 1_000,
    keepAlive: true,
    application_name: name,
    types: int8Numbers,
    ...statements.poolOptions(timeouts),
  })

  const location = await migratePostgres(directUrl ?? url, timeoutMs)
  const pool = newPool(poolOptions('tasklane', requests))
  const run = statements.run(pool)
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: statements.kysely(pool) }) })
  let channel: string
  try {
    // One channel per deployment, keyed like the write lock by the tasks table's oid, so
    // that deployments in other schemas of the database do not wake each other.
    const [row] = await run<{ oid: number | null; database: string; schema: string }>(
      `select to_regclass('tasks')::oid::int as oid, current_database() as database,
        current_schema() as schema`,
      [],
    )
    if (row?.database !== location.database || row.schema !== location.schema) {
      throw new Error(
        `DATABASE_DIRECT_URL reaches ${location.database}.${location.schema} but DATABASE_URL ${row?.database}.${row?.schema}; both must reach the same tasks.`,
      )
    }
    channel = `tasklane_tasks_${row.oid}`
  } catch (error) {
    await db.destroy()
    throw error
  }
  const shapes = new ReadShapes(db, 'postgres')
  const reads = new Reads(shapes, run)
  // Streamed listings hold a connection each for as long as they stream: a pool of their
  // own, the same size, so that they never take the connections requests need.
  const snapshots = new PostgresSnapshots(
    newPool(poolOptions('tasklane-snapshot', snapshotTimeouts)),
    shapes,
    statements.beginSnapshot,
  )
  const writes = postgresStatements(run, channel, WRITE_LOCK_CLASS)
  const listenUrl = directUrl ?? (mode === 'session' ? url : undefined)
  return new TaskStorage({
    kind: 'postgres',
    db,
    reads,
    batchesInFlight: 2,
    // The snapshot pool's size: a streamed listing past it is refused, not kept waiting.
    maxSnapshots: poolSize,
    descriptors: postgresDescriptors(poolSize),
    // Writers on every instance take turns: seqs and ids are drawn after the lock is held
    // and the lock is released only once the commit is visible, so both appear in commit
    // order and a reader following seqs (the feed) or ids (paging) never skips one. The lock
    // is keyed by the tasks table's oid, so deployments in other schemas do not contend.
    // A batch is at most two round trips: what it reads, then one statement.
    write: orderedInTurn((items, now, notBefore) => writeBatch(writes, items, now, notBefore)),
    writeAccess: postgresAccessWriter(pool, {
      settings: localTimeouts(requests),
      channel,
      lockClass: WRITE_LOCK_CLASS,
    }),
    probeWrite: async () => void (await sql.raw(WRITE_PROBE_SQL).execute(db)),
    openSnapshot: () => snapshots.open(),
    // A little past the database's own timeouts, so that it normally answers first (and
    // the statement is known to have been cancelled); this bound is for a silent server.
    timeoutMs: timeoutMs + 500,
    watchCommits: listenForCommits({
      url: listenUrl,
      channel,
      newestSeq: async () => (await reads.sequence()).seq,
      checkMs: config.commitCheckMs ?? (listenUrl === undefined ? COMMIT_POLL_MS : COMMIT_CHECK_MS),
    }),
    async close() {
      await snapshots.close()
      await db.destroy()
    },
  })
}

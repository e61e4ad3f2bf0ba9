import type { Kysely } from 'kysely'
import { DatabaseUnavailableError } from '../errors.js'
import { withDeadline } from './deadline.js'
import { StorageEvents } from './events.js'
import { HighWater } from './high-water.js'
import * as queries from './queries.js'
import type { Schema } from './schema.js'
import type { Storage, StorageConfig, WriteOutcome } from './storage.js'
import { storageError } from './unavailable.js'
import { WriteHealth } from './write-health.js'

/** What a backend brings: its Kysely handle for reads, its commit of a batch, its close. */
export interface Backend {
  readonly kind: StorageConfig['kind']
  readonly db: Kysely<Schema>
  readonly writeTasks: Storage['writeTasks']
  /** Commits the write probe (write-probe.ts) on the write path. */
  readonly probeWrite: () => Promise<void>
  readonly close: () => Promise<void>
  /**
   * Starts raising `highWater` for commits this process does not make itself (other
   * instances on the same database); resolves the returned function to stop. Started on
   * the first `onCommitted` subscription, stopped on close. SQLite has no other writer.
   */
  readonly watchCommits?: (highWater: HighWater) => () => Promise<void>
  /** Where the backend reports what goes wrong beyond one request (a new one if not given). */
  readonly events?: StorageEvents
  /** Longest a call may wait for the database before it fails with a 503 (ms); unset: no bound. */
  readonly timeoutMs?: number | undefined
}

/** The largest id a batch created (0 when it only replayed or clashed). */
function newestCreated(outcomes: readonly WriteOutcome[]): number {
  let newest = 0
  for (const outcome of outcomes) {
    if (outcome !== 'conflict' && !outcome.replayed && outcome.task.id > newest) {
      newest = outcome.task.id
    }
  }
  return newest
}

/** The Storage port on a backend: the reads are queries.ts on its handle, the same everywhere. */
export function kyselyStorage({
  kind,
  db,
  writeTasks,
  probeWrite,
  close,
  watchCommits,
  events = new StorageEvents(),
  timeoutMs,
}: Backend): Storage {
  const highWater = new HighWater()
  let stopWatching: (() => Promise<void>) | undefined

  /**
   * Rejects with DatabaseUnavailableError where the driver's error means "retry later",
   * and when the database does not answer within the timeout.
   */
  const guarded = <T>(promise: Promise<T>): Promise<T> =>
    withDeadline(promise, timeoutMs).catch((error: unknown) => {
      throw storageError(error)
    })

  const writeHealth = new WriteHealth(() => guarded(probeWrite()))
  // A fault reported outside any write (the writer thread died) leaves writes in doubt.
  events.subscribe((event) => {
    if (event.level === 'error') writeHealth.failed(new DatabaseUnavailableError())
  })
  return {
    kind,
    findTask: (id) => guarded(queries.findTask(db, id)),
    listTasks: (filter, limit) => guarded(queries.listTasks(db, filter, limit)),
    taskIdsFrom: (filter, n, count) => guarded(queries.taskIdsFrom(db, filter, n, count)),
    newestId: () => guarded(queries.newestId(db)),
    onCommitted(listener) {
      const stop = highWater.subscribe(listener)
      stopWatching ??= watchCommits?.(highWater)
      return stop
    },
    async writeTasks(items, now, notBefore) {
      let outcomes: WriteOutcome[]
      try {
        outcomes = await guarded(writeTasks(items, now, notBefore))
      } catch (error) {
        writeHealth.failed(error)
        throw error
      }
      writeHealth.succeeded()
      // The batch has committed, and ids follow commit order: every id up to its largest
      // is final. Said at once, here, rather than waiting for the database to echo it.
      highWater.raise(newestCreated(outcomes))
      return outcomes
    },
    purgeIdempotencyKeys: (before) => guarded(queries.purgeIdempotencyKeys(db, before)),
    ping: () => guarded(queries.ping(db)).catch(() => false),
    writable: () => writeHealth.writable(),
    onEvent: (listener) => events.subscribe(listener),
    async close() {
      await stopWatching?.()
      await close()
    },
  }
}

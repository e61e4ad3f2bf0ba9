import type { Task } from '@tasklane/contract'
import type { Kysely } from 'kysely'
import { DatabaseUnavailableError } from '../errors.js'
import { withDeadline } from './deadline.js'
import { StorageEvents } from './events.js'
import { HighWater } from './high-water.js'
import type { Reads } from './queries.js'
import * as queries from './queries.js'
import { recentTasks } from './recent-tasks.js'
import type { Schema } from './schema.js'
import type { Storage, StorageConfig, WriteOutcome } from './storage.js'
import { storageError } from './unavailable.js'
import { WriteHealth } from './write-health.js'

/**
 * What a backend brings: its Kysely handle, the reads (queries.ts) on its prepared
 * statements, its commit of a batch, its close.
 */
export interface Backend {
  readonly kind: StorageConfig['kind']
  readonly db: Kysely<Schema>
  readonly reads: Reads
  /**
   * Keep the newest tasks in memory for listings (recent-tasks.ts). Only where reads are
   * synchronous (SQLite): then no commit can land between a listing's check of the window
   * and its answer, nor a slower re-read overwrite a newer one.
   */
  readonly keepRecent?: boolean
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

/** The tasks a batch created, ascending (none when it only replayed or clashed). */
function createdTasks(outcomes: readonly WriteOutcome[]): Task[] {
  const created: Task[] = []
  for (const outcome of outcomes) {
    if (outcome !== 'conflict' && !outcome.replayed) created.push(outcome.task)
  }
  return created.sort((a, b) => a.id - b.id)
}

/** The Storage port on a backend: the reads are queries.ts, the same everywhere. */
export function kyselyStorage({
  kind,
  db,
  reads,
  keepRecent = false,
  writeTasks,
  probeWrite,
  close,
  watchCommits,
  events = new StorageEvents(),
  timeoutMs,
}: Backend): Storage {
  const highWater = new HighWater()
  const recent = keepRecent ? recentTasks(reads) : undefined
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
    findTask: (id) => guarded(reads.findTask(id)),
    listTasks: (filter, limit) => guarded((recent ?? reads).listTasks(filter, limit)),
    taskIdsFrom: (filter, n, count) => guarded(reads.taskIdsFrom(filter, n, count)),
    newestId: () => guarded(reads.newestId()),
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
      const created = createdTasks(outcomes)
      recent?.committed(created)
      highWater.raise(created.at(-1)?.id ?? 0)
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

import type { Kysely } from 'kysely'
import { HighWater } from './high-water.js'
import type { Reads } from './queries.js'
import * as queries from './queries.js'
import type { Schema } from './schema.js'
import type { Storage, StorageConfig, WriteOutcome } from './storage.js'
import { storageError } from './unavailable.js'

/**
 * What a backend brings: its Kysely handle, the reads (queries.ts) on its prepared
 * statements, its commit of a batch, its close.
 */
export interface Backend {
  readonly kind: StorageConfig['kind']
  readonly db: Kysely<Schema>
  readonly reads: Reads
  readonly writeTasks: Storage['writeTasks']
  readonly close: () => Promise<void>
  /**
   * Starts raising `highWater` for commits this process does not make itself (other
   * instances on the same database); resolves the returned function to stop. Started on
   * the first `onCommitted` subscription, stopped on close. SQLite has no other writer.
   */
  readonly watchCommits?: (highWater: HighWater) => () => Promise<void>
}

/** Rejects with DatabaseUnavailableError where the driver's error means "retry later". */
function translated<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    throw storageError(error)
  })
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

/** The Storage port on a backend: the reads are queries.ts, the same everywhere. */
export function kyselyStorage({
  kind,
  db,
  reads,
  writeTasks,
  close,
  watchCommits,
}: Backend): Storage {
  const highWater = new HighWater()
  let stopWatching: (() => Promise<void>) | undefined
  return {
    kind,
    findTask: (id) => translated(reads.findTask(id)),
    listTasks: (filter, limit) => translated(reads.listTasks(filter, limit)),
    taskIdsFrom: (filter, n, count) => translated(reads.taskIdsFrom(filter, n, count)),
    newestId: () => translated(reads.newestId()),
    onCommitted(listener) {
      const stop = highWater.subscribe(listener)
      stopWatching ??= watchCommits?.(highWater)
      return stop
    },
    async writeTasks(items, now, notBefore) {
      const outcomes = await translated(writeTasks(items, now, notBefore))
      // The batch has committed, and ids follow commit order: every id up to its largest
      // is final. Said at once, here, rather than waiting for the database to echo it.
      highWater.raise(newestCreated(outcomes))
      return outcomes
    },
    purgeIdempotencyKeys: (before) => translated(queries.purgeIdempotencyKeys(db, before)),
    ping: () => queries.ping(db),
    async close() {
      await stopWatching?.()
      await close()
    },
  }
}

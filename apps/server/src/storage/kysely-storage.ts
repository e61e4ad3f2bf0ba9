import type { Kysely } from 'kysely'
import * as queries from './queries.js'
import type { Schema } from './schema.js'
import type { Storage, StorageConfig } from './storage.js'
import { storageError } from './unavailable.js'

/** What a backend brings: its Kysely handle for reads, its commit of a batch, its close. */
export interface Backend {
  readonly kind: StorageConfig['kind']
  readonly db: Kysely<Schema>
  readonly writeTasks: Storage['writeTasks']
  readonly close: () => Promise<void>
}

/** Rejects with DatabaseUnavailableError where the driver's error means "retry later". */
function translated<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    throw storageError(error)
  })
}

/** The Storage port on a backend: the reads are queries.ts on its handle, the same everywhere. */
export function kyselyStorage({ kind, db, writeTasks, close }: Backend): Storage {
  return {
    kind,
    findTask: (id) => translated(queries.findTask(db, id)),
    listTasks: (filter, limit) => translated(queries.listTasks(db, filter, limit)),
    taskIdsFrom: (filter, n, count) => translated(queries.taskIdsFrom(db, filter, n, count)),
    writeTasks: (items, now, notBefore) => translated(writeTasks(items, now, notBefore)),
    purgeIdempotencyKeys: (before) => translated(queries.purgeIdempotencyKeys(db, before)),
    ping: () => queries.ping(db),
    close,
  }
}

import { StorageOpenError } from './open-error.js'
import { openPostgres } from './postgres/postgres-storage.js'
import { openSqlite } from './sqlite/sqlite-storage.js'
import type { Storage, StorageConfig } from './storage.js'

export type {
  AccessOutcome,
  AccessStorage,
  AccessWrite,
  NewTokenRecord,
  TokenRecord,
} from './access-port.js'
export type { StorageEvent } from './events.js'
export { StorageOpenError } from './open-error.js'
export {
  type AtSeq,
  type Change,
  type DueRange,
  type IfMatch,
  type Keyset,
  keyOf,
  type ListFilter,
  type Overdue,
  type Sequence,
  type Snapshot,
  type SortKey,
  type SortName,
  type Storage,
  type StorageConfig,
  type TaskWrite,
  type WriteOutcome,
} from './storage.js'
export type {
  DeliveryRecord,
  Failure,
  HistoryChange,
  NewWebhookRecord,
  WebhookBacklog,
  WebhookRecord,
  WebhookStorage,
  WebhookUpdate,
} from './webhook-port.js'
export type { Membership } from './write-port.js'

/**
 * Opens the configured database, runs pending migrations, and returns the Storage port;
 * rejects with StorageOpenError when the database cannot be opened.
 */
export async function openStorage(config: StorageConfig): Promise<Storage> {
  try {
    return config.kind === 'postgres'
      ? await openPostgres(config)
      : await openSqlite(config.filename)
  } catch (error) {
    throw new StorageOpenError(config, error)
  }
}

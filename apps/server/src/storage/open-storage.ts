import { StorageOpenError } from './open-error.js'
import { openPostgres } from './postgres/postgres-storage.js'
import { openSqlite } from './sqlite/sqlite-storage.js'
import type { Storage, StorageConfig } from './storage.js'

export type { StorageEvent } from './events.js'
export { StorageOpenError } from './open-error.js'
export type {
  AtSeq,
  Change,
  IfMatch,
  ListFilter,
  Snapshot,
  Storage,
  StorageConfig,
  TaskWrite,
  WriteOutcome,
} from './storage.js'

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

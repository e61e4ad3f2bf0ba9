import { openPostgres } from './postgres/open.js'
import { openSqlite } from './sqlite/open.js'
import type { Storage, StorageConfig } from './storage.js'

export type { ListFilter, Storage, StorageConfig, TaskWrite, WriteOutcome } from './storage.js'

/** Opens the configured database, runs pending migrations, and returns the Storage port. */
export function openStorage(config: StorageConfig): Promise<Storage> {
  return config.kind === 'postgres'
    ? openPostgres(config.url, config.poolSize, { commitCheckMs: config.commitCheckMs })
    : openSqlite(config.filename)
}

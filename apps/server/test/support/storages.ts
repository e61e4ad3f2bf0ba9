import { openStorage, type Storage } from '../../src/storage/open-storage.js'
import { backend, createTestDatabase, type TestDatabase } from './test-database.js'

/** A storage opened for a test, with what closing it takes. */
export interface OpenedStorage {
  readonly storage: Storage
  /** The database under it; undefined for `:memory:`. */
  readonly testDatabase: TestDatabase | undefined
  close(): Promise<void>
}

async function onTestDatabase(): Promise<OpenedStorage> {
  const testDatabase = await createTestDatabase()
  const storage = await openStorage(testDatabase.config)
  return {
    storage,
    testDatabase,
    async close() {
      await storage.close()
      await testDatabase.drop()
    },
  }
}

/**
 * The ways the Storage port runs on the backend under test, for `describe.each`: PostgreSQL;
 * or an SQLite file (its writer thread commits) and `:memory:` (the main thread commits).
 */
export const storages: [string, () => Promise<OpenedStorage>][] =
  backend === 'postgres'
    ? [['PostgreSQL', onTestDatabase]]
    : [
        ['an SQLite file (writer thread)', onTestDatabase],
        [
          'SQLite :memory: (main thread)',
          async () => {
            const storage = await openStorage({ kind: 'sqlite', filename: ':memory:' })
            return { storage, testDatabase: undefined, close: () => storage.close() }
          },
        ],
      ]

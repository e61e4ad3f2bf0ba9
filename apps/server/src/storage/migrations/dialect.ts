import type { StorageConfig } from '../terms.js'

/** Which database a migration runs on: some steps differ. */
export type Dialect = StorageConfig['kind']

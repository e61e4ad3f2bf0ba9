/**
 * File descriptors the storage holds at most, besides the ones every process has: what the
 * server subtracts from the open-file limit for MAX_CONNECTIONS' default, and how the
 * settings describe that default. One source for the number and its description.
 */

/**
 * SQLite: the file, its WAL and its shared memory (3 descriptors a connection) for the
 * reading connection, the writer thread's, and the idle snapshot connections it keeps (4).
 * More streamed listings at once open more, and answer 503 when no descriptor is left.
 */
export const SQLITE_DESCRIPTORS = 3 * (2 + 4)

/**
 * PostgreSQL: the requests' pool and the streamed listings' pool (DATABASE_POOL_SIZE
 * connections each), and the connection that listens for other instances' commits.
 */
export const postgresDescriptors = (poolSize: number): number => 2 * poolSize + 1

/** The descriptors above, as the settings' help says them. */
export const STORAGE_DESCRIPTORS_TEXT = `${postgresDescriptors(1) - 1} × DATABASE_POOL_SIZE + 1 on PostgreSQL, ${SQLITE_DESCRIPTORS} on SQLite`

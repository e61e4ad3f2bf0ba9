import { Kysely, sql } from 'kysely'
import pg from 'pg'
import { migrate } from '../migrations/migrator.js'
import type { Schema } from '../tables.js'
import { int8Numbers } from './int8-numbers.js'
import { MigrationDialect } from './migration-dialect.js'

/** Where a connection's tasks are: its database and the first schema of its search_path. */
export interface Location {
  readonly database: string
  readonly schema: string
}

/**
 * Runs pending migrations on `url`, with one connection of its own, closed after: several
 * instances starting together is safe, as each waits for the migration lock
 * (migration-dialect.ts) before it reads which migrations ran. Resolves with where the tasks
 * are, for the caller to check that its pool reaches the same ones.
 */
export async function migratePostgres(url: string, timeoutMs: number): Promise<Location> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: timeoutMs,
    application_name: 'tasklane-migrate',
    types: int8Numbers,
  })
  pool.on('error', () => {})
  const db = new Kysely<Schema>({ dialect: new MigrationDialect({ pool }) })
  try {
    await migrate(db, 'postgres')
    const { rows } = await sql<Location>`select current_database() as database,
      current_schema() as schema`.execute(db)
    return rows[0] as Location
  } finally {
    await db.destroy()
  }
}

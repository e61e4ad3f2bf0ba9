// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import { type Kysely, type Migration, Migrator, sql } from 'kysely'
import type { DatabaseConfig } from '../config.js'

type Dialect = DatabaseConfig['kind']

/** Migrations in order; names sort lexically, so they carry a number. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-create-tasks': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('tasks')
          // AUTOINCREMENT: SQLite never reuses an id, even one whose row was deleted.
          .addColumn('id', dialect === 'sqlite' ? 'integer' : 'bigint', (column) =>
            dialect === 'sqlite'
              ? column.primaryKey().autoIncrement()
              : column.primaryKey().generatedAlwaysAsIdentity(),
          )
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('tag', 'text')
          .execute()
        // Keeps `?tag=…&after=…` an index range scan, whatever the table's size.
        await db.schema.createIndex('tasks_tag_id').on('tasks').columns(['tag', 'id']).execute()
      },
    },
    '0002-create-idempotency-keys': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('idempotency_keys')
          .addColumn('key', 'text', (column) => column.primaryKey())
          .addColumn('fingerprint', 'text', (column) => column.notNull())
          .addColumn('task_id', 'bigint', (column) => column.notNull())
          // Milliseconds since the epoch: the same type and meaning on every backend.
          .addColumn('created_at', 'bigint', (column) => column.notNull())
          .execute()
        await db.schema
          .createIndex('idempotency_keys_created_at')
          .on('idempotency_keys')
          .column('created_at')
          .execute()
      },
    },
  }
}

/** Brings the schema up to date; safe to call on every start. */
export async function migrate(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
  })
  const { error } = await migrator.migrateToLatest()
  if (error) throw error
}

/** True when the database answers a trivial query. */
export async function ping(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db)
    return true
  } catch {
    return false
  }
}

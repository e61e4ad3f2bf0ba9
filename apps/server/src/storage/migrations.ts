// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
// The largest id ever assigned: 2^53-1, the largest integer a JavaScript number holds exactly.
import { MAX_TASK_ID } from '@tasklane/contract'
import { type Kysely, type Migration, Migrator, sql } from 'kysely'
import type { StorageConfig } from './storage.js'

type Dialect = StorageConfig['kind']

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
    '0003-limit-task-ids': {
      // Ids are JSON numbers: above 2^53-1 a JavaScript client would read them inexactly,
      // so the database refuses to assign one rather than the server issuing it.
      async up(db: Kysely<any>) {
        if (dialect === 'postgres') {
          await sql`alter table tasks alter column id set maxvalue ${sql.lit(MAX_TASK_ID)}`.execute(
            db,
          )
          return
        }
        await sql`create trigger tasks_id_limit after insert on tasks
          when new.id > ${sql.lit(MAX_TASK_ID)}
          begin select raise(abort, 'task ids are exhausted'); end`.execute(db)
      },
    },
    '0004-create-write-probe': {
      // One row that readiness rewrites (write-probe.ts) to learn whether writes commit.
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('write_probe')
          .addColumn('id', 'integer', (column) => column.primaryKey())
          .addColumn('probes', 'bigint', (column) => column.notNull())
          .execute()
      },
    },
  }
}

async function currentSchema(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    db,
  )
  const schema = rows[0]?.schema
  if (!schema) throw new Error('No schema of the PostgreSQL search_path exists.')
  return schema
}

/** Brings the schema up to date; safe to call on every start. */
export async function migrate(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    // PostgreSQL: Kysely looks for its own tables in every schema unless told which;
    // with another deployment (or test run) in a neighbouring schema it would find
    // theirs and never create ours. The schema is the first of the search_path.
    migrationTableSchema: dialect === 'postgres' ? await currentSchema(db) : undefined,
  })
  const { error } = await migrator.migrateToLatest()
  if (error) throw error
}

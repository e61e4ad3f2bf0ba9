// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
// The largest id ever assigned: 2^53-1, the largest integer a JavaScript number holds exactly.
import { MAX_TASK_ID } from '@tasklane/contract'
import { type Kysely, type Migration, Migrator, sql } from 'kysely'
import type { StorageConfig } from './storage.js'

type Dialect = StorageConfig['kind']

/**
 * PostgreSQL: writes a batch's tasks and keys as one statement, so a batch is one round
 * trip and one autocommit transaction. It takes the ordering lock first (ids are drawn
 * after it is held; it is released at commit, once the rows are visible), then answers
 * NULL, writing nothing, if one of the keys is stored and unexpired already (another
 * writer got there since the batch looked them up unlocked), else inserts the tasks, each
 * key with its task's id, notifies `channel` of the largest id (delivered at commit) and
 * answers the ids, the i-th for the i-th task. RETURNING's order is not promised, so rows
 * are paired with tasks by what they hold: the n-th task of a name and tag gets the n-th
 * smallest id of a row with that name and tag, which no one can tell apart from another.
 */
const WRITE_TASKS_FUNCTION = `
create function tasklane_write_tasks(
  p_names text[], p_tags text[], p_keys text[], p_fingerprints text[],
  p_created_at bigint, p_not_before bigint, p_channel text, p_lock_class int
) returns bigint[] language plpgsql as $$
declare
  v_ids bigint[];
begin
  perform pg_advisory_xact_lock(p_lock_class, 'tasks'::regclass::oid::int);
  if exists (
    select 1 from idempotency_keys k
    where k.key = any(p_keys) and k.created_at >= p_not_before
  ) then
    return null;
  end if;
  with input as (
    select u.n, u.t, u.k, u.f, u.ord
    from unnest(p_names, p_tags, p_keys, p_fingerprints) with ordinality as u(n, t, k, f, ord)
  ), inserted as (
    insert into tasks (name, tag) select i.n, i.t from input i order by i.ord
    returning tasks.id, tasks.name, tasks.tag
  ), paired as (
    select i.ord, i.k, i.f, x.id
    from (select input.*, row_number() over (partition by input.n, input.t order by input.ord) as rn
          from input) i
    join (select inserted.*,
            row_number() over (partition by inserted.name, inserted.tag order by inserted.id) as rn
          from inserted) x
      on x.name = i.n and x.tag is not distinct from i.t and x.rn = i.rn
  ), saved as (
    insert into idempotency_keys (key, fingerprint, task_id, created_at)
    select p.k, p.f, p.id, p_created_at from paired p where p.k is not null
    on conflict (key) do update set fingerprint = excluded.fingerprint,
      task_id = excluded.task_id, created_at = excluded.created_at
  )
  select array_agg(p.id order by p.ord) into v_ids from paired p;
  perform pg_notify(p_channel, (select max(x) from unnest(v_ids) as x)::text);
  return v_ids;
end
$$`

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
    '0005-write-function': {
      // PostgreSQL: a batch of creates in one round trip (storage/postgres/batch.ts).
      async up(db: Kysely<any>) {
        if (dialect === 'postgres') await sql.raw(WRITE_TASKS_FUNCTION).execute(db)
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

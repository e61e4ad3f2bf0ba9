// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import { generateNKeysBetween } from 'fractional-indexing'
import { type Kysely, type Migration, sql } from 'kysely'
import { searchText } from '../../domain/search-text.js'
import type { Dialect } from './dialect.js'

/**
 * PostgreSQL: the write function of migration 0007 with planning's columns: a task's notes,
 * due (its text, day, instant and sort key), priority, completion time, position and search
 * text. It also holds the plan to the manual order it read: a list whose `order_seq`
 * changed since (another writer placed a task in it) makes the plan stale, and a plan that
 * places tasks in a list sets its `order_seq` to the plan's last seq.
 */
export const PLANNING_WRITE_FUNCTION = `
create or replace function tasklane_write(p_plan jsonb, p_channel text, p_lock_class int)
returns jsonb language plpgsql as $$
declare
  v_now bigint := (p_plan->>'now')::bigint;
  v_changes int := (p_plan->>'changes')::int;
  v_base bigint;
  v_access bigint;
  v_ids jsonb;
begin
  perform pg_advisory_xact_lock(p_lock_class, 'tasks'::regclass::oid::int);
  select seq, access_seq into v_base, v_access from change_sequence where id = 1;
  if v_access <> (p_plan->>'access_seq')::bigint or exists (
    select 1 from idempotency_keys k
    join jsonb_to_recordset(p_plan->'keys') as p(key text) on p.key = k.key
    where k.created_at >= (p_plan->>'not_before')::bigint
  ) or exists (
    select 1 from jsonb_to_recordset(p_plan->'rewrites') as r(id bigint, expected_seq bigint)
    left join tasks t on t.id = r.id
    where t.seq is distinct from r.expected_seq
  ) or exists (
    select 1 from jsonb_to_recordset(p_plan->'orders') as o(id bigint, expected bigint)
    left join lists l on l.id = o.id
    where l.order_seq is distinct from o.expected
  ) then
    return null;
  end if;
  update tasks t set name = r.name, tag = r.tag, status = r.status, list_id = r.list_id,
    version = r.version, updated_at = v_now, updated_by = r.updated_by, seq = v_base + r.off,
    prev_seq = coalesce(r.prev_seq, v_base + r.prev_off), prev_tag = r.prev_tag,
    prev_status = r.prev_status, prev_list_id = r.prev_list_id, notes = r.notes, due = r.due,
    due_day = r.due_day, due_at = r.due_at, due_key = r.due_key, priority = r.priority,
    completed_at = r.completed_at, position = r.position, search = r.search
  from jsonb_to_recordset(p_plan->'rewrites') as r(id bigint, name text, tag text,
    status text, list_id bigint, version bigint, updated_by text, off int, prev_seq bigint,
    prev_off int, prev_tag text, prev_status text, prev_list_id bigint, notes text, due text,
    due_day text, due_at bigint, due_key bigint, priority int, completed_at bigint,
    position text, search text)
  where t.id = r.id;
  with inserted as (
    insert into tasks (name, tag, status, list_id, version, created_at, updated_at,
      created_by, updated_by, seq, prev_seq, created_seq, notes, due, due_day, due_at, due_key,
      priority, completed_at, position, search)
    select i.name, i.tag, i.status, i.list_id, 1, v_now, v_now, i.created_by, i.created_by,
      v_base + i.off, 0, v_base + i.off, i.notes, i.due, i.due_day, i.due_at, i.due_key,
      i.priority, i.completed_at, i.position, i.search
    from jsonb_to_recordset(p_plan->'inserts') as i(name text, tag text, status text,
      list_id bigint, created_by text, off int, notes text, due text, due_day text,
      due_at bigint, due_key bigint, priority int, completed_at bigint, position text,
      search text)
    order by i.off
    returning id, seq
  )
  select coalesce(jsonb_agg(id order by seq), '[]'::jsonb) into v_ids from inserted;
  insert into idempotency_keys (key, fingerprint, target_id, created_at, seq, response)
  select k.key, k.fingerprint, coalesce(k.target_id, (v_ids->>k.ins)::bigint), v_now,
    coalesce(k.seq, v_base + k.off), k.response
  from jsonb_to_recordset(p_plan->'keys') as k(key text, fingerprint text, target_id bigint,
    ins int, seq bigint, off int, response text)
  on conflict (key) do update set fingerprint = excluded.fingerprint,
    target_id = excluded.target_id, created_at = excluded.created_at, seq = excluded.seq,
    response = excluded.response;
  if v_changes > 0 then
    update lists l set order_seq = v_base + v_changes
    from jsonb_to_recordset(p_plan->'orders') as o(id bigint) where l.id = o.id;
    update change_sequence set seq = v_base + v_changes where id = 1;
    perform pg_notify(p_channel, (v_base + v_changes)::text);
  end if;
  return jsonb_build_object('base', v_base, 'ids', v_ids);
end
$$`

/** Rows read and written a batch at a time while filling the new columns. */
const BATCH = 5_000

/**
 * Existing tasks: no notes, no due, priority 0, those done completed when they last
 * changed (the moment they became done is not known), each list's tasks in id order in its
 * manual order, and their search text.
 */
async function fill(db: Kysely<any>): Promise<void> {
  const lists = await db.selectFrom('tasks').select('list_id').distinct().execute()
  for (const { list_id: listId } of lists) {
    let after = 0
    let last: string | null = null
    for (;;) {
      const rows = await db
        .selectFrom('tasks')
        .select(['id', 'name', 'status', 'updated_at'])
        .where('list_id', '=', listId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute()
      if (rows.length === 0) break
      const positions = generateNKeysBetween(last, null, rows.length)
      for (const [i, row] of rows.entries()) {
        await db
          .updateTable('tasks')
          .set({
            position: positions[i],
            search: searchText(row.name, null),
            completed_at: row.status === 'done' ? row.updated_at : null,
          })
          .where('id', '=', row.id)
          .execute()
      }
      last = positions.at(-1) as string
      after = Number(rows.at(-1)?.id)
    }
  }
}

/**
 * The responses stored with Idempotency-Keys of tasks answered before positions existed:
 * each gains the position the migration gave its task, so that a replay is a whole Task.
 */
async function fillStoredResponses(db: Kysely<any>): Promise<void> {
  const keys = await db
    .selectFrom('idempotency_keys as k')
    .innerJoin('tasks as t', 't.id', 'k.target_id')
    .select(['k.key', 'k.response', 't.position'])
    .where('k.response', 'is not', null)
    .execute()
  for (const key of keys) {
    const task = JSON.parse(key.response)
    // A task's response has a status; a list's or a member's has none.
    if (task.position !== undefined || task.status === undefined) continue
    await db
      .updateTable('idempotency_keys')
      .set({ response: JSON.stringify({ ...task, priority: 0, position: key.position }) })
      .where('key', '=', key.key)
      .execute()
  }
}

/**
 * The operator class of pg_trgm's GIN index, wherever the extension lives; undefined when it
 * cannot be had or used here. The migration runs in a transaction: a refused CREATE EXTENSION
 * (no CREATE on the database) is undone to a savepoint, and search works by scanning. An
 * extension another role made in a schema of its own (the first of its search_path) is
 * there but not ours to use without USAGE on that schema: then too, no index.
 */
async function trigramOps(db: Kysely<any>): Promise<string | undefined> {
  await sql`savepoint pg_trgm`.execute(db)
  try {
    await sql`create extension if not exists pg_trgm`.execute(db)
    await sql`release savepoint pg_trgm`.execute(db)
  } catch {
    await sql`rollback to savepoint pg_trgm`.execute(db)
  }
  const { rows } = await sql<{ schema: string; usable: boolean }>`
    select quote_ident(n.nspname) as schema, has_schema_privilege(n.oid, 'USAGE') as usable
    from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db)
  const found = rows[0]
  return found?.usable ? `${found.schema}.gin_trgm_ops` : undefined
}

/**
 * Planning: notes, a due day or moment, a priority, the time a task became done, its place
 * in its list's manual order (fractional keys that sort as bytes), and its search text with
 * an index that answers `LIKE '% word%'` (an FTS5 trigram table on SQLite, pg_trgm on
 * PostgreSQL); an index for every sort; and each list's `order_seq`, which orders the
 * writers that place tasks in it.
 */
export const planning = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    const integer = dialect === 'sqlite' ? 'integer' : 'bigint'
    const columns: [string, string, (c: any) => any][] = [
      ['notes', 'text', (c) => c],
      ['due', 'text', (c) => c],
      ['due_day', 'text', (c) => c],
      ['due_at', integer, (c) => c],
      ['due_key', integer, (c) => c],
      ['priority', 'integer', (c) => c.notNull().defaultTo(0)],
      ['completed_at', integer, (c) => c],
      // Compared as bytes on both backends (PostgreSQL's collation "C").
      ['position', 'text', (c) => (dialect === 'postgres' ? c.modifyEnd(sql`collate "C"`) : c)],
      ['search', 'text', (c) => c.notNull().defaultTo(' ')],
    ]
    for (const [name, type, build] of columns) {
      await db.schema
        .alterTable('tasks')
        .addColumn(name, type as any, build)
        .execute()
    }
    await db.schema
      .alterTable('lists')
      .addColumn('order_seq', integer, (c) => c.notNull().defaultTo(0))
      .execute()
    await fill(db)
    await fillStoredResponses(db)
    const index = (name: string, columns: string[]) =>
      db.schema.createIndex(name).on('tasks').columns(columns).execute()
    await index('tasks_list_position', ['list_id', 'position', 'id'])
    await index('tasks_due_key', ['due_key', 'id'])
    await index('tasks_priority', ['priority', 'id'])
    await index('tasks_updated', ['updated_at', 'id'])
    if (dialect === 'sqlite') {
      await sql`create virtual table tasks_search using fts5(search, tokenize = 'trigram')`.execute(
        db,
      )
      await sql`insert into tasks_search (rowid, search)
        select id, search from tasks where status <> 'deleted'`.execute(db)
    } else {
      const ops = await trigramOps(db)
      if (ops !== undefined) {
        await sql`create index tasks_search_trigram on tasks using gin (search ${sql.raw(ops)})`.execute(
          db,
        )
      }
      await sql.raw(PLANNING_WRITE_FUNCTION).execute(db)
    }
  },
})

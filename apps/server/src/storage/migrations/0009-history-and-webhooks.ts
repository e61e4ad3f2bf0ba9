// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import { type Kysely, type Migration, sql } from 'kysely'
import type { Dialect } from './dialect.js'

/**
 * PostgreSQL: the write function of migration 0008 that also keeps every change: one row
 * of `task_history` a change, written in the same statement (so in the same transaction
 * and the same group commit) as the change itself.
 */
export const HISTORY_WRITE_FUNCTION = `
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
  insert into task_history (seq, task_id, list_id, at, actor, type, changes, task)
  select v_base + h.off, coalesce(h.task_id, (v_ids->>h.ins)::bigint), h.list_id, v_now,
    h.actor, h.type, h.changes, h.task
  from jsonb_to_recordset(p_plan->'history') as h(off int, task_id bigint, ins int,
    list_id bigint, actor text, type text, changes text, task text);
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

/**
 * History and webhooks. `task_history`: every create, change, move and delete of a task,
 * at its seq, with its time, actor, the fields it changed (from and to, JSON) and the task
 * after it (JSON; null for a delete), kept for HISTORY_RETENTION_DAYS and as long as an
 * enabled webhook still has to deliver it. `webhooks`: where changes are posted, whose
 * rights they follow (its creator's), what it has delivered (`cursor`, a seq), its state
 * and its lease (one deliverer at a time across instances). `webhook_deliveries`: the
 * latest attempts of each webhook.
 */
export const historyAndWebhooks = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    const integer = dialect === 'sqlite' ? 'integer' : 'bigint'
    const id = (c: any) =>
      dialect === 'sqlite'
        ? c.primaryKey().autoIncrement()
        : c.primaryKey().generatedByDefaultAsIdentity()
    await db.schema
      .createTable('task_history')
      .addColumn('seq', integer, (c) => c.primaryKey())
      .addColumn('task_id', integer, (c) => c.notNull())
      .addColumn('list_id', integer, (c) => c.notNull())
      .addColumn('at', integer, (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) =>
        c.notNull().check(sql`type in ('created', 'updated', 'moved', 'deleted')`),
      )
      .addColumn('changes', 'text', (c) => c.notNull())
      .addColumn('task', 'text')
      .execute()
    // A task's history, newest first; and the pruning of the oldest.
    await db.schema
      .createIndex('task_history_task')
      .on('task_history')
      .columns(['task_id', 'seq'])
      .execute()
    await db.schema.createIndex('task_history_at').on('task_history').columns(['at']).execute()

    await db.schema
      .createTable('webhooks')
      .addColumn('id', integer, id)
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('caller', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('lists', 'text')
      .addColumn('types', 'text', (c) => c.notNull())
      .addColumn('cursor', integer, (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) =>
        c.notNull().check(sql`status in ('active', 'failing', 'disabled')`),
      )
      .addColumn('version', integer, (c) => c.notNull())
      .addColumn('created_at', integer, (c) => c.notNull())
      .addColumn('updated_at', integer, (c) => c.notNull())
      .addColumn('failing_since', integer)
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', integer, (c) => c.notNull().defaultTo(0))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', integer, (c) => c.notNull().defaultTo(0))
      .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema.createIndex('webhooks_owner').on('webhooks').columns(['owner', 'id']).execute()

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', integer, id)
      .addColumn('webhook_id', integer, (c) => c.notNull())
      .addColumn('seq', integer, (c) => c.notNull())
      .addColumn('at', integer, (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('error', 'text')
      .execute()
    await db.schema
      .createIndex('webhook_deliveries_webhook')
      .on('webhook_deliveries')
      .columns(['webhook_id', 'id'])
      .execute()

    if (dialect === 'postgres') await sql.raw(HISTORY_WRITE_FUNCTION).execute(db)
  },
})

// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import { type Kysely, type Migration, sql } from 'kysely'
import type { Dialect } from './dialect.js'

/**
 * PostgreSQL: writes one batch of task writes (write-plan.ts's plan, as JSON) in one round
 * trip and one autocommit transaction. It takes the ordering lock (seqs and ids are drawn
 * after it is held and it is released at commit, so both follow commit order across
 * instances), then answers NULL, writing nothing, if anyone's rights changed since the plan
 * was read (`access_seq`), one of the plan's keys is stored and unexpired already, or one of
 * the rows it rewrites no longer has the seq it was read with; else rewrites the rows,
 * inserts the new tasks, stores the keys with their responses, takes the plan's seqs from
 * `change_sequence`, notifies `p_channel` of the newest seq (delivered at commit), and
 * answers the seq before the plan's first change and the new tasks' ids in order.
 */
export const WRITE_FUNCTION = `
create function tasklane_write(p_plan jsonb, p_channel text, p_lock_class int)
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
  ) then
    return null;
  end if;
  update tasks t set name = r.name, tag = r.tag, status = r.status, list_id = r.list_id,
    version = r.version, updated_at = v_now, updated_by = r.updated_by, seq = v_base + r.off,
    prev_seq = coalesce(r.prev_seq, v_base + r.prev_off), prev_tag = r.prev_tag,
    prev_status = r.prev_status, prev_list_id = r.prev_list_id
  from jsonb_to_recordset(p_plan->'rewrites') as r(id bigint, name text, tag text,
    status text, list_id bigint, version bigint, updated_by text, off int, prev_seq bigint,
    prev_off int, prev_tag text, prev_status text, prev_list_id bigint)
  where t.id = r.id;
  with inserted as (
    insert into tasks (name, tag, status, list_id, version, created_at, updated_at,
      created_by, updated_by, seq, prev_seq, created_seq)
    select i.name, i.tag, i.status, i.list_id, 1, v_now, v_now, i.created_by, i.created_by,
      v_base + i.off, 0, v_base + i.off
    from jsonb_to_recordset(p_plan->'inserts') as i(name text, tag text, status text,
      list_id bigint, created_by text, off int)
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
    update change_sequence set seq = v_base + v_changes where id = 1;
    perform pg_notify(p_channel, (v_base + v_changes)::text);
  end if;
  return jsonb_build_object('base', v_base, 'ids', v_ids);
end
$$`

/**
 * Lists and people: every task is in a list (list 1, "Tasks", holds the existing ones) and
 * records who created and changed it; members give principals roles in lists; access
 * tokens are made through the API; `access_changes` tells each principal's change feeds
 * where its rights changed. Seqs now come from `change_sequence`, since lists, members and
 * tokens change in the same sequence as tasks. Idempotency-Keys name the task or list they
 * wrote (`target_id`). Tasks older than this count as created and changed by `local`.
 */
export const listsAndPeople = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    const now = Date.now()
    const integer = dialect === 'sqlite' ? 'integer' : 'bigint'
    const id = (c: any) =>
      dialect === 'sqlite'
        ? c.primaryKey().autoIncrement()
        : c.primaryKey().generatedByDefaultAsIdentity()

    await db.schema
      .createTable('change_sequence')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('seq', integer, (c) => c.notNull())
      .addColumn('access_seq', integer, (c) => c.notNull())
      .execute()
    await sql`insert into change_sequence (id, seq, access_seq)
      select 1, coalesce(max(seq), 0), 0 from tasks`.execute(db)

    await db.schema
      .createTable('lists')
      .addColumn('id', integer, id)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('live', 'deleted')`))
      .addColumn('version', integer, (c) => c.notNull())
      .addColumn('created_at', integer, (c) => c.notNull())
      .addColumn('updated_at', integer, (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text', (c) => c.notNull())
      .addColumn('seq', integer, (c) => c.notNull())
      .execute()
    await db
      .insertInto('lists')
      .values({
        id: 1,
        name: 'Tasks',
        status: 'live',
        version: 1,
        created_at: now,
        updated_at: now,
        created_by: 'local',
        updated_by: 'local',
        seq: 0,
      })
      .execute()
    if (dialect === 'postgres') {
      // The identity goes on after the list given its id explicitly.
      await sql`select setval(pg_get_serial_sequence('lists', 'id'), 1)`.execute(db)
    }

    await db.schema
      .createTable('members')
      .addColumn('list_id', integer, (c) => c.notNull())
      .addColumn('principal', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) =>
        c.notNull().check(sql`role in ('viewer', 'editor', 'owner')`),
      )
      .addColumn('seq', integer, (c) => c.notNull())
      .addPrimaryKeyConstraint('members_pk', ['list_id', 'principal'])
      .execute()
    // A principal's rights are its memberships: read by principal on every rights refresh.
    await db.schema
      .createIndex('members_principal')
      .on('members')
      .columns(['principal', 'list_id'])
      .execute()

    await db.schema
      .createTable('access_changes')
      .addColumn('seq', integer, (c) => c.notNull())
      .addColumn('principal', 'text', (c) => c.notNull())
      .addColumn('list_id', integer, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('access_changes_principal_seq')
      .on('access_changes')
      .columns(['principal', 'seq'])
      .execute()

    await db.schema
      .createTable('tokens')
      .addColumn('id', integer, id)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('principal', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('read', 'write', 'admin')`))
      .addColumn('lists', 'text')
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', integer, (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('expires_at', integer)
      .addColumn('revoked_at', integer)
      .addColumn('seq', integer, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('tokens_principal')
      .on('tokens')
      .columns(['principal', 'id'])
      .execute()

    const columns: [string, string, (c: any) => any][] = [
      ['list_id', integer, (c) => c.notNull().defaultTo(1)],
      ['created_by', 'text', (c) => c.notNull().defaultTo('local')],
      ['updated_by', 'text', (c) => c.notNull().defaultTo('local')],
      ['prev_list_id', integer, (c) => c],
      ['created_seq', integer, (c) => c.notNull().defaultTo(0)],
    ]
    for (const [name, type, build] of columns) {
      await db.schema
        .alterTable('tasks')
        .addColumn(name, type as any, build)
        .execute()
    }
    // A task whose latest change made it was created at that change.
    await db
      .updateTable('tasks')
      .set({ created_seq: sql.ref('seq') })
      .where('prev_seq', '=', 0)
      .execute()
    // Keeps a list's page (`?list=…`, and a member's lists) an index range scan.
    await db.schema.createIndex('tasks_list_id').on('tasks').columns(['list_id', 'id']).execute()

    await db.schema.alterTable('idempotency_keys').renameColumn('task_id', 'target_id').execute()

    if (dialect === 'postgres') {
      await sql`drop function if exists tasklane_write(jsonb, text, int)`.execute(db)
      await sql.raw(WRITE_FUNCTION).execute(db)
    }
  },
})

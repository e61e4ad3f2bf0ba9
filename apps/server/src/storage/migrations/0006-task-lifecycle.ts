// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import { type Kysely, type Migration, sql } from 'kysely'
import type { Dialect } from './dialect.js'

/**
 * PostgreSQL: writes one batch (write-plan.ts's plan, as JSON) in one round trip and one
 * autocommit transaction. It takes the ordering lock (seqs and ids are drawn after it is
 * held; it is released at commit, once the rows are visible, so both follow commit order
 * across instances), then answers NULL, writing nothing, if one of the plan's keys is stored
 * and unexpired already or one of the rows it rewrites no longer has the seq it was read
 * with (another writer got there since the plan was made), else rewrites the rows, inserts
 * the new tasks, stores the keys with their responses, notifies `p_channel` of the newest
 * seq (delivered at commit), and answers the seq before the plan's first change and the new
 * tasks' ids in order.
 */
export const WRITE_FUNCTION = `
create function tasklane_write(p_plan jsonb, p_channel text, p_lock_class int)
returns jsonb language plpgsql as $$
declare
  v_now bigint := (p_plan->>'now')::bigint;
  v_base bigint;
  v_ids jsonb;
begin
  perform pg_advisory_xact_lock(p_lock_class, 'tasks'::regclass::oid::int);
  if exists (
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
  select coalesce(max(seq), 0) into v_base from tasks;
  update tasks t set name = r.name, tag = r.tag, status = r.status, version = r.version,
    updated_at = v_now, seq = v_base + r.off,
    prev_seq = coalesce(r.prev_seq, v_base + r.prev_off), prev_tag = r.prev_tag,
    prev_status = r.prev_status
  from jsonb_to_recordset(p_plan->'rewrites') as r(id bigint, name text, tag text,
    status text, version bigint, off int, prev_seq bigint, prev_off int, prev_tag text,
    prev_status text)
  where t.id = r.id;
  with inserted as (
    insert into tasks (name, tag, status, version, created_at, updated_at, seq, prev_seq)
    select i.name, i.tag, i.status, 1, v_now, v_now, v_base + i.off, 0
    from jsonb_to_recordset(p_plan->'inserts') as i(name text, tag text, status text, off int)
    order by i.off
    returning id, seq
  )
  select coalesce(jsonb_agg(id order by seq), '[]'::jsonb) into v_ids from inserted;
  insert into idempotency_keys (key, fingerprint, task_id, created_at, seq, response)
  select k.key, k.fingerprint, coalesce(k.task_id, (v_ids->>k.ins)::bigint), v_now,
    coalesce(k.seq, v_base + k.off), k.response
  from jsonb_to_recordset(p_plan->'keys') as k(key text, fingerprint text, task_id bigint,
    ins int, seq bigint, off int, response text)
  on conflict (key) do update set fingerprint = excluded.fingerprint,
    task_id = excluded.task_id, created_at = excluded.created_at, seq = excluded.seq,
    response = excluded.response;
  if (p_plan->>'changes')::int > 0 then
    perform pg_notify(p_channel, (v_base + (p_plan->>'changes')::int)::text);
  end if;
  return jsonb_build_object('base', v_base, 'ids', v_ids);
end
$$`

/** The old write function of 0005, which wrote creates only. */
const OLD_WRITE_FUNCTION =
  'tasklane_write_tasks(text[], text[], text[], text[], bigint, bigint, text, int)'

/**
 * A stored key's response as 0006 keeps them: the task without its id, as JSON. The keys
 * stored before it were all creates, answered with the task as it still is (nothing could
 * change a task before 0006).
 */
function legacyResponse(row: { name: string; tag: string | null; created_at: number }): string {
  const time = new Date(Number(row.created_at)).toISOString()
  return JSON.stringify({
    name: row.name,
    ...(row.tag === null ? {} : { tag: row.tag }),
    status: 'open',
    version: 1,
    createdAt: time,
    updatedAt: time,
  })
}

/**
 * When existing tasks were created, as well as it can be known: tasklane recorded no time,
 * but a stored Idempotency-Key holds the time of its create, and ids follow creation. So
 * each task gets the earliest key time of it or a later task (the latest moment it can have
 * been created); tasks after the last keyed one, the time of the upgrade.
 */
async function creationTimes(db: Kysely<any>, now: number): Promise<void> {
  const keys = await db
    .selectFrom('idempotency_keys')
    .select(['task_id', 'created_at'])
    .orderBy('task_id', 'desc')
    .execute()
  // From the newest keyed task down: the earliest key time of it and every later one.
  const ranges: { upTo: number; time: number }[] = []
  let earliest = now
  for (const key of keys) {
    earliest = Math.min(earliest, Number(key.created_at))
    ranges.push({ upTo: Number(key.task_id), time: earliest })
  }
  for (const [i, { upTo, time }] of ranges.entries()) {
    const above = ranges[i + 1]?.upTo ?? 0
    await db
      .updateTable('tasks')
      .set({ created_at: time, updated_at: time })
      .where('id', '>', above)
      .where('id', '<=', upTo)
      .execute()
  }
}

/**
 * Tasks that change: a status (open, done, or deleted, the row staying as the change feed's
 * tombstone), a version, creation and change times, and the change sequence `seq` with what
 * the latest change replaced (`prev_*`). Existing tasks become open, version 1, with seq =
 * id (so the feed's old positions, task ids, stay valid positions), created and changed as
 * late as they can have been (`creationTimes`). Stored Idempotency-Keys keep replaying the
 * task they created.
 */
export const taskLifecycle = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    const now = Date.now()
    const integer = dialect === 'sqlite' ? 'integer' : 'bigint'
    const statusCheck = sql`status in ('open', 'done', 'deleted')`
    const columns: [string, string, (c: any) => any][] = [
      ['status', 'text', (c) => c.notNull().defaultTo('open').check(statusCheck)],
      ['version', integer, (c) => c.notNull().defaultTo(1)],
      ['created_at', integer, (c) => c.notNull().defaultTo(now)],
      ['updated_at', integer, (c) => c.notNull().defaultTo(now)],
      ['seq', integer, (c) => c.notNull().defaultTo(0)],
      ['prev_seq', integer, (c) => c.notNull().defaultTo(0)],
      ['prev_tag', 'text', (c) => c],
      ['prev_status', 'text', (c) => c],
    ]
    for (const [name, type, build] of columns) {
      await db.schema
        .alterTable('tasks')
        .addColumn(name, type as any, build)
        .execute()
    }
    await db
      .updateTable('tasks')
      .set({ seq: sql.ref('id') })
      .execute()
    await creationTimes(db, now)
    await db.schema.createIndex('tasks_seq').on('tasks').column('seq').unique().execute()
    // Keeps `?status=…` an index range scan.
    await db.schema.createIndex('tasks_status_id').on('tasks').columns(['status', 'id']).execute()

    await db.schema
      .alterTable('idempotency_keys')
      .addColumn('seq', integer, (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema.alterTable('idempotency_keys').addColumn('response', 'text').execute()
    const keys = await db
      .selectFrom('idempotency_keys as k')
      .innerJoin('tasks as t', 't.id', 'k.task_id')
      .select(['k.key', 't.name', 't.tag', 't.created_at'])
      .execute()
    for (const key of keys) {
      await db
        .updateTable('idempotency_keys')
        .set({
          seq: sql.ref('task_id'),
          response: legacyResponse(key),
        })
        .where('key', '=', key.key)
        .execute()
    }

    if (dialect === 'postgres') {
      await sql.raw(`drop function if exists ${OLD_WRITE_FUNCTION}`).execute(db)
      await sql.raw(WRITE_FUNCTION).execute(db)
    }
  },
})

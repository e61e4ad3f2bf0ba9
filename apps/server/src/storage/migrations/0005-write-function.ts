// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import { type Kysely, type Migration, sql } from 'kysely'
import type { Dialect } from './dialect.js'

/**
 * PostgreSQL, before the task lifecycle: writes a batch of creates and their keys as one
 * statement. Migration 0006 replaces it with `tasklane_write`; kept here as the history of
 * what databases hold between the two.
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

/** PostgreSQL: a batch of creates in one round trip (replaced by 0006). */
export const createWriteFunction = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    if (dialect === 'postgres') await sql.raw(WRITE_TASKS_FUNCTION).execute(db)
  },
})

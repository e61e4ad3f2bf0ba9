import type { RunQuery } from '../compiled-query.js'
import { TASK_COLUMNS } from '../task-row.js'
import {
  type BatchContext,
  type PlannedSeq,
  STALE,
  type WritePlan,
  type WriteStatements,
} from '../write-port.js'

/**
 * What a batch reads, as one statement (one snapshot): the keys, the rows, the principals'
 * roles, which of the named lists are live, the lowest live list and the access seq. Each
 * end of a list is read by its own plain ORDER BY, a walk of (list_id, position): one
 * ORDER BY of CASEs for both ends sorted the whole list, each create reading all of it.
 */
const READ = `with w as (
    select w.*, case when w.first then (select min(id) from lists where status = 'live')
      else w.list end as lid
    from jsonb_to_recordset($6::jsonb) as w(list bigint, first boolean, at text, ref bigint,
      n int)
  ), pivot as (
    select w.ref, w.n, t.list_id, t.position from w
    join tasks t on t.id = w.ref and t.status <> 'deleted' where w.at = 'around'
  ), placed as (
    select e.* from w cross join lateral (
      select id, list_id, position from tasks where list_id = w.lid and status <> 'deleted'
      order by position asc limit w.n) e where w.at = 'top'
    union all
    select e.* from w cross join lateral (
      select id, list_id, position from tasks where list_id = w.lid and status <> 'deleted'
      order by position desc limit w.n) e where w.at = 'bottom'
    union all
    select e.* from pivot p cross join lateral (
      select id, list_id, position from tasks where list_id = p.list_id and status <> 'deleted'
      and position < p.position order by position desc limit p.n) e
    union all
    select e.* from pivot p cross join lateral (
      select id, list_id, position from tasks where list_id = p.list_id and status <> 'deleted'
      and position > p.position order by position asc limit p.n) e
    union all
    select p.ref, p.list_id, p.position from pivot p
  ), resolved as (
    select lid as list_id, at, null::bigint as ref from w
    where at in ('top', 'bottom') and lid is not null
    union all
    select list_id, 'around', ref from pivot
  )
  select
  (select access_seq from change_sequence where id = 1) as "accessSeq",
  (select coalesce(json_agg(json_build_object('id', id, 'listId', list_id,
    'position', position)), '[]') from placed) as placed,
  (select coalesce(json_agg(json_build_object('listId', r.list_id, 'at', r.at,
    'ref', r.ref)), '[]') from resolved r) as windows,
  (select coalesce(json_agg(json_build_object('listId', l.id, 'orderSeq', l.order_seq)), '[]')
    from lists l where l.id in (select list_id from resolved)) as orders,
  (select min(id) from lists where status = 'live') as "firstList",
  (select coalesce(json_agg(id order by id), '[]') from lists
    where status = 'live' and id = any($4::bigint[])) as lists,
  (select coalesce(json_agg(json_build_object('principal', principal, 'listId', list_id,
    'role', role)), '[]') from members where principal = any($3::text[])) as members,
  (select coalesce(json_agg(t), '[]') from (select ${TASK_COLUMNS.join(', ')}, seq from tasks
    where id = any($2::bigint[])) t) as rows,
  (select coalesce(json_agg(json_build_object('key', key, 'fingerprint', fingerprint,
    'targetId', target_id, 'seq', seq, 'response', response)), '[]') from idempotency_keys
    where key = any($1::text[]) and created_at >= $5::bigint) as keys`
const WRITE = 'select tasklane_write($1::jsonb, $2::text, $3::int) as applied'

/** Their names where they are prepared (on sessions). */
export const WRITE_STATEMENT_NAMES: ReadonlyMap<string, string> = new Map([
  [READ, 'tasklane_batch_read'],
  [WRITE, 'tasklane_write'],
])

/** The read's row as PostgreSQL answers it. */
type RawContext = Omit<BatchContext, 'firstList' | 'windows'> & {
  readonly firstList: number | null
  readonly windows: readonly {
    listId: number
    at: 'top' | 'bottom' | 'around'
    ref: number | null
  }[]
}

const absolute = (seq: PlannedSeq) => ('abs' in seq ? seq.abs : null)
const offset = (seq: PlannedSeq) => ('off' in seq ? seq.off : null)

/** The plan as the write function (migration 0010) reads it: snake_case, seqs split in two. */
function planJson(plan: WritePlan): string {
  return JSON.stringify({
    now: plan.now,
    not_before: plan.notBefore,
    access_seq: plan.accessSeq,
    changes: plan.changes,
    inserts: plan.inserts,
    rewrites: plan.rewrites.map((row) => ({
      id: row.id,
      expected_seq: row.expectedSeq,
      name: row.name,
      tag: row.tag,
      status: row.status,
      list_id: row.list_id,
      version: row.version,
      updated_by: row.updated_by,
      off: row.off,
      prev_seq: absolute(row.prevSeq),
      prev_off: offset(row.prevSeq),
      prev_tag: row.prevTag,
      prev_status: row.prevStatus,
      prev_list_id: row.prevListId,
      prev_priority: row.prevPriority,
      prev_due: row.prevDue,
      notes: row.notes,
      due: row.due,
      due_day: row.due_day,
      due_at: row.due_at,
      due_key: row.due_key,
      priority: row.priority,
      completed_at: row.completed_at,
      position: row.position,
      search: row.search,
    })),
    orders: plan.orders.map(({ listId, orderSeq }) => ({ id: listId, expected: orderSeq })),
    keys: plan.keys.map((key) => ({
      key: key.key,
      fingerprint: key.fingerprint,
      target_id: 'id' in key.task ? key.task.id : null,
      ins: 'insert' in key.task ? key.task.insert : null,
      seq: absolute(key.seq),
      off: offset(key.seq),
      response: key.response,
    })),
    history: plan.history.map((change) => ({
      off: change.off,
      task_id: 'id' in change.task ? change.task.id : null,
      ins: 'insert' in change.task ? change.task.insert : null,
      list_id: change.listId,
      actor: change.actor,
      type: change.type,
      changes: change.changes,
      task: change.snapshot,
    })),
  })
}

/**
 * The write algorithm's statements on PostgreSQL, run by `run` (prepared on sessions, each in
 * a transaction of its own with its timeouts through a pooler: postgres-storage.ts), one
 * round trip each whatever the batch's size: the read takes no lock, and the write is the
 * function of migration 0007, which takes the ordering lock (`lockClass`, the tasks table's
 * oid), checks that nothing it read has changed, writes, and notifies `channel` of the
 * newest seq, delivered to every listener at commit.
 */
export function postgresStatements(
  run: RunQuery,
  channel: string,
  lockClass: number,
): WriteStatements {
  return {
    async read(request) {
      const windows = request.windows.map(({ listId, at, size }) => ({
        list: typeof listId === 'number' && listId > 0 ? listId : null,
        first: listId === 'first',
        at: typeof at === 'string' ? at : 'around',
        ref: typeof at === 'string' ? null : at.around,
        n: size,
      }))
      const [row] = await run<RawContext>(READ, [
        request.keys,
        request.ids,
        request.principals,
        request.lists,
        request.notBefore,
        JSON.stringify(windows),
      ])
      if (row === undefined) throw new Error('The batch read answered no row.')
      return {
        ...row,
        accessSeq: Number(row.accessSeq),
        firstList: row.firstList === null ? undefined : Number(row.firstList),
        windows: row.windows.map(({ listId, at, ref }) => ({
          listId: Number(listId),
          at: at === 'around' ? { around: Number(ref) } : at,
        })),
      }
    },
    async apply(plan) {
      const rows = await run<{ applied: { base: number; ids: number[] } | null }>(WRITE, [
        planJson(plan),
        channel,
        lockClass,
      ])
      const applied = rows[0]?.applied
      return applied === null || applied === undefined
        ? STALE
        : { base: Number(applied.base), ids: applied.ids.map(Number) }
    },
  }
}

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
 * roles, which of the named lists are live, the lowest live list and the access seq.
 */
const READ = `select
  (select access_seq from change_sequence where id = 1) as "accessSeq",
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

const absolute = (seq: PlannedSeq) => ('abs' in seq ? seq.abs : null)
const offset = (seq: PlannedSeq) => ('off' in seq ? seq.off : null)

/** The plan as the write function (migration 0007) reads it: snake_case, seqs split in two. */
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
    })),
    keys: plan.keys.map((key) => ({
      key: key.key,
      fingerprint: key.fingerprint,
      target_id: 'id' in key.task ? key.task.id : null,
      ins: 'insert' in key.task ? key.task.insert : null,
      seq: absolute(key.seq),
      off: offset(key.seq),
      response: key.response,
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
      const [row] = await run<BatchContext>(READ, [
        request.keys,
        request.ids,
        request.principals,
        request.lists,
        request.notBefore,
      ])
      if (row === undefined) throw new Error('The batch read answered no row.')
      return {
        ...row,
        accessSeq: Number(row.accessSeq),
        firstList: row.firstList === null ? undefined : Number(row.firstList),
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

import type { RunQuery } from '../compiled-query.js'
import { TASK_COLUMNS } from '../task-row.js'
import {
  type CurrentRow,
  type PlannedSeq,
  STALE,
  type StoredKey,
  type WritePlan,
  type WriteStatements,
} from '../write-port.js'

/** The statements of a batch. */
const FIND_KEYS = `select key, fingerprint, task_id as "taskId", seq, response from idempotency_keys
    where key = any($1::text[]) and created_at >= $2::bigint`
const FIND_ROWS = `select ${TASK_COLUMNS.join(', ')}, seq from tasks where id = any($1::bigint[])`
const WRITE = 'select tasklane_write($1::jsonb, $2::text, $3::int) as applied'

/** Their names where they are prepared (on sessions). */
export const WRITE_STATEMENT_NAMES: ReadonlyMap<string, string> = new Map([
  [FIND_KEYS, 'tasklane_find_keys'],
  [FIND_ROWS, 'tasklane_find_rows'],
  [WRITE, 'tasklane_write'],
])

const absolute = (seq: PlannedSeq) => ('abs' in seq ? seq.abs : null)
const offset = (seq: PlannedSeq) => ('off' in seq ? seq.off : null)

/** The plan as the write function (migration 0006) reads it: snake_case, seqs split in two. */
function planJson(plan: WritePlan): string {
  return JSON.stringify({
    now: plan.now,
    not_before: plan.notBefore,
    changes: plan.changes,
    inserts: plan.inserts,
    rewrites: plan.rewrites.map((row) => ({
      id: row.id,
      expected_seq: row.expectedSeq,
      name: row.name,
      tag: row.tag,
      status: row.status,
      version: row.version,
      off: row.off,
      prev_seq: absolute(row.prevSeq),
      prev_off: offset(row.prevSeq),
      prev_tag: row.prevTag,
      prev_status: row.prevStatus,
    })),
    keys: plan.keys.map((key) => ({
      key: key.key,
      fingerprint: key.fingerprint,
      task_id: 'id' in key.task ? key.task.id : null,
      ins: 'insert' in key.task ? key.task.insert : null,
      seq: absolute(key.seq),
      off: offset(key.seq),
      response: key.response,
    })),
  })
}

/**
 * The write algorithm's statements on PostgreSQL, run by `run` (prepared on sessions, each in
 * a transaction of its own with its timeouts through a pooler: open.ts), one round trip each
 * whatever the batch's size, each its own transaction: keys and rows are read without any lock, and
 * the write is the function of migration 0006, which takes the ordering lock (`lockClass`,
 * the tasks table's oid), checks that nothing it read has changed, writes, and notifies
 * `channel` of the newest seq, delivered to every listener at commit.
 */
export function postgresStatements(
  run: RunQuery,
  channel: string,
  lockClass: number,
): WriteStatements {
  return {
    findKeys: (keys, notBefore) => run<StoredKey>(FIND_KEYS, [keys, notBefore]),
    findRows: (ids) => run<CurrentRow>(FIND_ROWS, [ids]),
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

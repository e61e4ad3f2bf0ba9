import type pg from 'pg'
import { type BatchStatements, KEYS_TAKEN, type TaskRow } from '../write-batch.js'

/** The batch's two statements: named, so each connection prepares them once. */
const FIND_KEYS = {
  name: 'tasklane_find_keys',
  text: `select k.key, k.fingerprint, t.id, t.name, t.tag
    from idempotency_keys k join tasks t on t.id = k.task_id
    where k.key = any($1::text[]) and k.created_at >= $2::bigint`,
}
const WRITE_TASKS = {
  name: 'tasklane_write_tasks',
  text: `select tasklane_write_tasks($1::text[], $2::text[], $3::text[], $4::text[],
    $5::bigint, $6::bigint, $7::text, $8::int) as ids`,
}

/**
 * The batch's statements on PostgreSQL, one round trip each whatever the batch's size
 * (arrays travel as parameters), each its own autocommit transaction: the keys are looked
 * up without any lock, and the write is the function of migration 0004, which takes the
 * ordering lock (`lockClass`, the tasks table's oid), checks the keys again, inserts, and
 * notifies `channel` of the batch's largest id, delivered to every listener at commit.
 */
export function postgresStatements(
  pool: pg.Pool,
  channel: string,
  lockClass: number,
): BatchStatements {
  return {
    async findKeys(keys, notBefore) {
      const { rows } = await pool.query<{ key: string; fingerprint: string } & TaskRow>({
        ...FIND_KEYS,
        values: [keys, notBefore],
      })
      return rows.map(({ key, fingerprint, ...task }) => ({ key, fingerprint, task }))
    },
    async insertTasks(tasks, createdAt, notBefore) {
      const { rows } = await pool.query<{ ids: string[] | null }>({
        ...WRITE_TASKS,
        values: [
          tasks.map((t) => t.name),
          tasks.map((t) => t.tag),
          tasks.map((t) => t.key ?? null),
          tasks.map((t) => t.fingerprint),
          createdAt,
          notBefore,
          channel,
          lockClass,
        ],
      })
      const ids = rows[0]?.ids
      return ids === null || ids === undefined ? KEYS_TAKEN : ids.map(Number)
    },
  }
}

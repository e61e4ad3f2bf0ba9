import type SQLite from 'better-sqlite3'
import type { TaskWrite, WriteOutcome } from '../storage.js'
import { type BatchStatements, type KeyRecord, type TaskRow, writeBatch } from '../write-batch.js'

/** The batch's statements on prepared SQLite statements: one row each, no round trips. */
function statements(db: SQLite.Database): BatchStatements {
  const findKey = db.prepare<[string, number], Omit<KeyRecord, 'key'>>(
    'SELECT fingerprint, task_id AS taskId FROM idempotency_keys WHERE key = ? AND created_at >= ?',
  )
  const findTask = db.prepare<[number], TaskRow>('SELECT id, name, tag FROM tasks WHERE id = ?')
  const insertTask = db.prepare<[string, string | null], { id: number }>(
    'INSERT INTO tasks (name, tag) VALUES (?, ?) RETURNING id',
  )
  const saveKey = db.prepare<[string, string, number, number]>(
    `INSERT INTO idempotency_keys (key, fingerprint, task_id, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint,
       task_id = excluded.task_id, created_at = excluded.created_at`,
  )
  return {
    findKeys: (keys, notBefore) =>
      keys.flatMap((key) => {
        const record = findKey.get(key, notBefore)
        return record ? [{ key, ...record }] : []
      }),
    findTasks: (ids) => ids.flatMap((id) => findTask.get(id) ?? []),
    // One INSERT per task: each RETURNING gives that task's own id.
    insertTasks: (tasks) =>
      tasks.map((task) => (insertTask.get(task.name, task.tag) as { id: number }).id),
    saveKeys(keys, createdAt) {
      for (const { key, fingerprint, taskId } of keys)
        saveKey.run(key, fingerprint, taskId, createdAt)
    },
  }
}

/**
 * Commits batches of creates on `db` with the one write algorithm (write-batch.ts), each in
 * a transaction of its own, one after the other.
 */
export function createBatchWriter(db: SQLite.Database) {
  const prepared = statements(db)
  const begin = db.prepare('BEGIN IMMEDIATE')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  let last: Promise<unknown> = Promise.resolve()

  async function commitBatch(
    items: readonly TaskWrite[],
    now: number,
    notBefore: number,
  ): Promise<WriteOutcome[]> {
    // IMMEDIATE: take the write lock when the transaction begins, not halfway through.
    begin.run()
    try {
      const outcomes = await writeBatch(prepared, items, now, notBefore)
      commit.run()
      return outcomes
    } catch (error) {
      if (db.inTransaction) rollback.run()
      throw error
    }
  }

  return (items: readonly TaskWrite[], now: number, notBefore: number) => {
    // The statements are synchronous, so a batch never yields to another; chaining keeps
    // that true whatever the statements become.
    const next = last.then(() => commitBatch(items, now, notBefore))
    last = next.catch(() => {})
    return next
  }
}

import type { TaskWrite, WriteOutcome } from '../storage.js'
import { type BatchStatements, type TaskRow, writeBatch } from '../write-batch.js'
import { WRITE_PROBE_SQL } from '../write-probe.js'
import type { SQLiteDatabase } from './driver.js'

/** The batch's statements on prepared SQLite statements: one row each, no round trips. */
function statements(db: SQLiteDatabase): BatchStatements {
  // A key's task is found by the join: tasks are never deleted, so every key has one.
  const findKey = db.prepare<[string, number], { fingerprint: string } & TaskRow>(
    `SELECT k.fingerprint, t.id, t.name, t.tag FROM idempotency_keys k
     JOIN tasks t ON t.id = k.task_id WHERE k.key = ? AND k.created_at >= ?`,
  )
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
        const row = findKey.get(key, notBefore)
        if (row === undefined) return []
        const { fingerprint, ...task } = row
        return [{ key, fingerprint, task }]
      }),
    // One INSERT per task: each RETURNING gives that task's own id. Inside the write
    // transaction that findKeys ran in, so no key can have been stored since.
    insertTasks: (tasks, createdAt) =>
      tasks.map(({ name, tag, key, fingerprint }) => {
        const { id } = insertTask.get(name, tag) as { id: number }
        if (key !== undefined) saveKey.run(key, fingerprint, id, createdAt)
        return id
      }),
  }
}

/**
 * Commits batches of creates on `db` with the one write algorithm (write-batch.ts), each in
 * a transaction of its own, one after the other; `probe` commits the write probe
 * (write-probe.ts) in turn with them.
 */
export function createBatchWriter(db: SQLiteDatabase) {
  const prepared = statements(db)
  const begin = db.prepare('BEGIN IMMEDIATE')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  const probe = db.prepare(WRITE_PROBE_SQL)
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

  function inTurn<T>(work: () => T | Promise<T>): Promise<T> {
    // The statements are synchronous, so a batch never yields to another; chaining keeps
    // that true whatever the statements become.
    const next = last.then(work)
    last = next.catch(() => {})
    return next
  }

  return {
    commit: (items: readonly TaskWrite[], now: number, notBefore: number) =>
      inTurn(() => commitBatch(items, now, notBefore)),
    probe: () => inTurn(() => void probe.run()),
  }
}

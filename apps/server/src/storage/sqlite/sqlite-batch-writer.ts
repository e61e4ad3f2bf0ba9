import type { TaskWrite, WriteOutcome } from '../storage.js'
import { TASK_COLUMNS } from '../task-row.js'
import { writeBatch } from '../write-plan.js'
import type { CurrentRow, PlannedSeq, StoredKey, WriteStatements } from '../write-port.js'
import { WRITE_PROBE_SQL } from '../write-probe.js'
import type { SQLiteDatabase } from './sqlite-driver.js'

/** A seq of the plan, once the seq before its first change is known. */
const seqOf = (seq: PlannedSeq, base: number) => ('abs' in seq ? seq.abs : base + seq.off)

/**
 * The write algorithm's statements on prepared SQLite statements, run synchronously inside
 * the transaction the caller has begun: nothing can change between reading and writing.
 */
function statements(db: SQLiteDatabase): WriteStatements {
  const findKey = db.prepare<[string, number], Omit<StoredKey, 'key'>>(
    `SELECT fingerprint, task_id AS taskId, seq, response FROM idempotency_keys
     WHERE key = ? AND created_at >= ?`,
  )
  const findRow = db.prepare<[number], CurrentRow>(
    `SELECT ${TASK_COLUMNS.join(', ')}, seq FROM tasks WHERE id = ?`,
  )
  const newestSeq = db.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM tasks').pluck()
  const insertTask = db
    .prepare<[string, string | null, string, number, number, number], number>(
      `INSERT INTO tasks (name, tag, status, version, created_at, updated_at, seq, prev_seq)
     VALUES (?, ?, ?, 1, ?, ?, ?, 0) RETURNING id`,
    )
    .pluck()
  const rewriteTask = db.prepare(
    `UPDATE tasks SET name = ?, tag = ?, status = ?, version = ?, updated_at = ?, seq = ?,
       prev_seq = ?, prev_tag = ?, prev_status = ? WHERE id = ? AND seq = ?`,
  )
  const saveKey = db.prepare(
    `INSERT INTO idempotency_keys (key, fingerprint, task_id, created_at, seq, response)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint,
       task_id = excluded.task_id, created_at = excluded.created_at, seq = excluded.seq,
       response = excluded.response`,
  )
  return {
    findKeys: (keys, notBefore) =>
      keys.flatMap((key) => {
        const row = findKey.get(key, notBefore)
        return row === undefined ? [] : [{ key, ...row }]
      }),
    findRows: (ids) =>
      ids.flatMap((id) => {
        const row = findRow.get(id)
        return row === undefined ? [] : [row]
      }),
    apply(plan) {
      const base = newestSeq.get() as number
      for (const row of plan.rewrites) {
        const { changes } = rewriteTask.run(
          row.name,
          row.tag,
          row.status,
          row.version,
          plan.now,
          base + row.off,
          seqOf(row.prevSeq, base),
          row.prevTag,
          row.prevStatus,
          row.id,
          row.expectedSeq,
        )
        // Inside the write transaction nothing else writes: a miss is a fault, and the
        // transaction is rolled back whole.
        if (changes !== 1) throw new Error(`Task ${row.id} changed inside its write transaction.`)
      }
      const ids = plan.inserts.map(
        (task) =>
          insertTask.get(
            task.name,
            task.tag,
            task.status,
            plan.now,
            plan.now,
            base + task.off,
          ) as number,
      )
      for (const key of plan.keys) {
        const taskId = 'id' in key.task ? key.task.id : (ids[key.task.insert] as number)
        saveKey.run(key.key, key.fingerprint, taskId, plan.now, seqOf(key.seq, base), key.response)
      }
      return { base, ids }
    },
  }
}

/**
 * Commits batches of writes on `db` with the one write algorithm (write-plan.ts), each in
 * a transaction of its own, one after the other; `probe` commits the write probe
 * (write-probe.ts) in turn with them.
 */
export class SqliteBatchWriter {
  readonly #db: SQLiteDatabase
  readonly #statements: WriteStatements
  readonly #begin
  readonly #commit
  readonly #rollback
  readonly #probe
  #last: Promise<unknown> = Promise.resolve()

  constructor(db: SQLiteDatabase) {
    this.#db = db
    this.#statements = statements(db)
    this.#begin = db.prepare('BEGIN IMMEDIATE')
    this.#commit = db.prepare('COMMIT')
    this.#rollback = db.prepare('ROLLBACK')
    this.#probe = db.prepare(WRITE_PROBE_SQL)
  }

  /** Commits one batch after those before it; resolves with one outcome per write. */
  commit(items: readonly TaskWrite[], now: number, notBefore: number): Promise<WriteOutcome[]> {
    return this.#inTurn(async () => {
      // IMMEDIATE: take the write lock when the transaction begins, not halfway through.
      this.#begin.run()
      try {
        const outcomes = await writeBatch(this.#statements, items, now, notBefore)
        this.#commit.run()
        return outcomes
      } catch (error) {
        if (this.#db.inTransaction) this.#rollback.run()
        throw error
      }
    })
  }

  /** Commits the write probe in turn with the batches. */
  probe(): Promise<void> {
    return this.#inTurn(() => void this.#probe.run())
  }

  #inTurn<T>(work: () => T | Promise<T>): Promise<T> {
    // The statements are synchronous, so a batch never yields to another; chaining keeps
    // that true whatever the statements become.
    const next = this.#last.then(work)
    this.#last = next.catch(() => {})
    return next
  }
}

import { Kysely, SqliteDialect } from 'kysely'
import type { Role } from '../../domain/rights.js'
import type { AccessWrite, AccessWritten } from '../access-port.js'
import { applyAccessWrite } from '../access-writes.js'
import type { TaskWrite, WriteOutcome } from '../storage.js'
import type { Schema } from '../tables.js'
import { TASK_COLUMNS } from '../task-row.js'
import { writeBatch } from '../write-plan.js'
import type {
  CurrentRow,
  PlannedInsert,
  PlannedSeq,
  StoredKey,
  WriteStatements,
} from '../write-port.js'
import { WRITE_PROBE_SQL } from '../write-probe.js'
import type { SQLiteDatabase } from './sqlite-driver.js'
import { StatementCache } from './statement-cache.js'

/** A seq of the plan, once the seq before its first change is known. */
const seqOf = (seq: PlannedSeq, base: number) => ('abs' in seq ? seq.abs : base + seq.off)

/**
 * The write algorithm's statements on prepared SQLite statements, run synchronously inside
 * the transaction the caller has begun: nothing can change between reading and writing.
 */
function statements(db: SQLiteDatabase): WriteStatements {
  const findKey = db.prepare<[string, number], Omit<StoredKey, 'key'>>(
    `SELECT fingerprint, target_id AS targetId, seq, response FROM idempotency_keys
     WHERE key = ? AND created_at >= ?`,
  )
  const findRow = db.prepare<[number], CurrentRow>(
    `SELECT ${TASK_COLUMNS.join(', ')}, seq FROM tasks WHERE id = ?`,
  )
  const findRoles = db.prepare<[string], { listId: number; role: Role }>(
    'SELECT list_id AS listId, role FROM members WHERE principal = ?',
  )
  const isLive = db
    .prepare<[number], number>("SELECT 1 FROM lists WHERE id = ? AND status = 'live'")
    .pluck()
  const firstList = db
    .prepare<[], number | null>("SELECT min(id) FROM lists WHERE status = 'live'")
    .pluck()
  const sequence = db.prepare<[], { seq: number; accessSeq: number }>(
    'SELECT seq, access_seq AS accessSeq FROM change_sequence WHERE id = 1',
  )
  const advance = db.prepare<[number]>('UPDATE change_sequence SET seq = ? WHERE id = 1')
  const insertTask = db
    .prepare<[PlannedInsert & { now: number; seq: number }], number>(
      `INSERT INTO tasks (name, tag, status, list_id, version, created_at, updated_at,
         created_by, updated_by, seq, prev_seq, created_seq)
       VALUES (@name, @tag, @status, @list_id, 1, @now, @now, @created_by, @created_by, @seq, 0,
         @seq) RETURNING id`,
    )
    .pluck()
  const rewriteTask = db.prepare(
    `UPDATE tasks SET name = @name, tag = @tag, status = @status, list_id = @list_id,
       version = @version, updated_at = @now, updated_by = @updated_by, seq = @seq,
       prev_seq = @prevSeq, prev_tag = @prevTag, prev_status = @prevStatus,
       prev_list_id = @prevListId
     WHERE id = @id AND seq = @expectedSeq`,
  )
  const saveKey = db.prepare(
    `INSERT INTO idempotency_keys (key, fingerprint, target_id, created_at, seq, response)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint,
       target_id = excluded.target_id, created_at = excluded.created_at, seq = excluded.seq,
       response = excluded.response`,
  )
  return {
    read(request) {
      const keys = request.keys.flatMap((key) => {
        const row = findKey.get(key, request.notBefore)
        return row === undefined ? [] : [{ key, ...row }]
      })
      const rows = request.ids.flatMap((id) => {
        const row = findRow.get(id)
        return row === undefined ? [] : [row]
      })
      const members = request.principals.flatMap((principal) =>
        findRoles.all(principal).map(({ listId, role }) => ({ principal, listId, role })),
      )
      const lists = request.lists.filter((id) => isLive.get(id) !== undefined).sort((a, b) => a - b)
      const { accessSeq } = sequence.get() as { accessSeq: number }
      return { keys, rows, members, lists, firstList: firstList.get() ?? undefined, accessSeq }
    },
    apply(plan) {
      const base = (sequence.get() as { seq: number }).seq
      for (const row of plan.rewrites) {
        const { changes } = rewriteTask.run({
          ...row,
          now: plan.now,
          seq: base + row.off,
          prevSeq: seqOf(row.prevSeq, base),
        })
        // Inside the write transaction nothing else writes: a miss is a fault, and the
        // transaction is rolled back whole.
        if (changes !== 1) throw new Error(`Task ${row.id} changed inside its write transaction.`)
      }
      const ids = plan.inserts.map(
        (task) => insertTask.get({ ...task, now: plan.now, seq: base + task.off }) as number,
      )
      for (const key of plan.keys) {
        const targetId = 'id' in key.task ? key.task.id : (ids[key.task.insert] as number)
        saveKey.run(
          key.key,
          key.fingerprint,
          targetId,
          plan.now,
          seqOf(key.seq, base),
          key.response,
        )
      }
      if (plan.changes > 0) advance.run(base + plan.changes)
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
  /** Kysely on the same connection, for the access writes. */
  readonly #kysely: Kysely<Schema>
  #last: Promise<unknown> = Promise.resolve()

  constructor(db: SQLiteDatabase) {
    this.#db = db
    this.#kysely = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: new StatementCache(db) }),
    })
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

  /** Commits one write of lists, members or tokens, in turn with the batches. */
  access(write: AccessWrite, now: number, notBefore: number): Promise<AccessWritten> {
    return this.#inTurn(async () => {
      this.#begin.run()
      try {
        const written = await applyAccessWrite(this.#kysely, write, now, notBefore)
        this.#commit.run()
        return written
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

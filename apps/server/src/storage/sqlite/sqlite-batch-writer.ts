import { Kysely, SqliteDialect } from 'kysely'
import type { AccessWrite, AccessWritten } from '../access-port.js'
import { applyAccessWrite } from '../access-writes.js'
import type { TaskWrite, WriteOutcome } from '../storage.js'
import type { Schema } from '../tables.js'
import { writeBatch } from '../write-plan.js'
import type { WriteStatements } from '../write-port.js'
import { WRITE_PROBE_SQL } from '../write-probe.js'
import type { SQLiteDatabase } from './sqlite-driver.js'
import { sqliteStatements, UNINDEX_SQL } from './sqlite-write-statements.js'
import { StatementCache } from './statement-cache.js'

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
  /** A list's live tasks, and whether a task is deleted: for the search index, below. */
  readonly #listed
  readonly #deleted
  readonly #unindex
  /** Kysely on the same connection, for the access writes. */
  readonly #kysely: Kysely<Schema>
  #last: Promise<unknown> = Promise.resolve()

  constructor(db: SQLiteDatabase) {
    this.#db = db
    this.#kysely = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: new StatementCache(db) }),
    })
    this.#statements = sqliteStatements(db)
    this.#begin = db.prepare('BEGIN IMMEDIATE')
    this.#commit = db.prepare('COMMIT')
    this.#rollback = db.prepare('ROLLBACK')
    this.#probe = db.prepare(WRITE_PROBE_SQL)
    this.#listed = db.prepare<[number], { id: number; search: string }>(
      "SELECT id, search FROM tasks WHERE list_id = ? AND status <> 'deleted'",
    )
    this.#deleted = db.prepare<[number]>("SELECT 1 FROM tasks WHERE id = ? AND status = 'deleted'")
    this.#unindex = db.prepare(UNINDEX_SQL)
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
        // A deleted list's tasks leave the search index, told the text each had (the
        // shared access write knows no index; PostgreSQL's is on the column itself).
        const live = write.kind === 'delete-list' ? this.#listed.all(write.id) : []
        const written = await applyAccessWrite(this.#kysely, write, now, notBefore)
        for (const { id, search } of live) {
          if (this.#deleted.get(id) !== undefined) this.#unindex.run(id, search)
        }
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

import type BetterSqlite3 from 'better-sqlite3'
import type { SqliteDatabase } from 'kysely'
import type { RunQuery } from '../compiled-query.js'
import type { SQLiteDatabase } from './sqlite-driver.js'

type Statement = BetterSqlite3.Statement<unknown[], unknown>

/**
 * better-sqlite3 compiles SQL on every `prepare`, and Kysely prepares every query it
 * runs. The SQL of a query shape never changes (values are bound parameters), so each
 * statement is compiled once per connection and reused. Bounded in case shapes multiply.
 * It is also the connection as Kysely's SqliteDialect takes it.
 */
export class StatementCache implements SqliteDatabase {
  readonly #statements = new Map<string, Statement>()

  constructor(
    readonly connection: SQLiteDatabase,
    readonly max = 256,
  ) {}

  prepare(sql: string): Statement {
    let statement = this.#statements.get(sql)
    if (statement === undefined) {
      if (this.#statements.size >= this.max) this.#statements.clear()
      statement = this.connection.prepare<unknown[], unknown>(sql)
      this.#statements.set(sql, statement)
    }
    return statement
  }

  close(): void {
    this.connection.close()
  }

  /**
   * Reads run on the cached statement directly: synchronous, so no connection to acquire
   * and nothing to wait for (Kysely's driver would take its mutex).
   */
  readonly run: RunQuery = <Row>(sql: string, parameters: readonly unknown[]) =>
    Promise.resolve(this.prepare(sql).all(parameters) as Row[])
}

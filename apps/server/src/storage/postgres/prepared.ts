import type pg from 'pg'
import type { RunQuery } from '../compiled-query.js'

/** Where a query runs: the pool (any free connection) or one connection. */
type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

/**
 * A statement name per SQL text, the same for every connection of the process: the one given
 * for it (a name that says what it does, as traces show it), else `tasklane_read_<n>`.
 */
export class StatementNames {
  readonly #names: Map<string, string>
  #reads = 0

  constructor(given: ReadonlyMap<string, string> = new Map()) {
    this.#names = new Map(given)
  }

  of(sql: string): string {
    let name = this.#names.get(sql)
    if (name === undefined) {
      name = `tasklane_read_${++this.#reads}`
      this.#names.set(sql, name)
    }
    return name
  }
}

/**
 * Runs statements as named prepared statements: each connection parses and plans a
 * statement's SQL the first time it runs it, later executions send only the values.
 * Names are per process and per SQL text, so they never clash on one connection. For
 * sessions only: a prepared statement lives on its server connection, which a
 * transaction-mode pooler hands to other clients (`prepared statement "…" already exists`).
 */
export function preparedQueries(on: Queryable, names: StatementNames): RunQuery {
  return async <Row>(sql: string, parameters: readonly unknown[]) => {
    const result = await on.query({ name: names.of(sql), text: sql, values: [...parameters] })
    return result.rows as Row[]
  }
}

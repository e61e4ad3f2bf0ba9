import type pg from 'pg'
import type { RunQuery } from '../compiled-query.js'

/**
 * Runs the reads as named prepared statements: each connection parses and plans a
 * statement's SQL the first time it runs it, later executions send only the values.
 * Names are per process and per SQL text, so they never clash on one connection.
 */
export function preparedQueries(pool: pg.Pool): RunQuery {
  const names = new Map<string, string>()
  return async <Row>(sql: string, parameters: readonly unknown[]) => {
    let name = names.get(sql)
    if (name === undefined) {
      name = `tasklane_read_${names.size + 1}`
      names.set(sql, name)
    }
    const result = await pool.query({ name, text: sql, values: [...parameters] })
    return result.rows as Row[]
  }
}

import type { Compilable } from 'kysely'

const NAME = Symbol('parameter name')

/** What stands in for a value while a query's shape is compiled. */
interface Placeholder {
  readonly [NAME]: string
}

/**
 * Runs SQL that a query shape compiled to, with its values in order: a prepared statement,
 * however the backend keeps one (better-sqlite3 statement, PostgreSQL named statement).
 */
export type RunQuery = <Row>(sql: string, parameters: readonly unknown[]) => Promise<Row[]>

/** A query shape compiled once: its SQL, and which named value each parameter takes. */
export interface CompiledShape<Values> {
  readonly sql: string
  readonly names: readonly (keyof Values & string)[]
}

/**
 * Compiles the query that `build` makes from placeholders, once: every value the query
 * takes must come from `value(name)`, so that its SQL holds for any values and only the
 * parameters change from one execution to the next (no building or compiling per request).
 */
export function compileShape<Values>(
  build: (value: <K extends keyof Values & string>(name: K) => Values[K]) => Compilable,
): CompiledShape<Values> {
  const placeholder = (name: string) => ({ [NAME]: name }) satisfies Placeholder as never
  const { sql, parameters } = build(placeholder).compile()
  const names = parameters.map((parameter) => {
    if (typeof parameter !== 'object' || parameter === null || !(NAME in parameter)) {
      throw new Error(`A compiled query shape holds a constant parameter: ${sql}`)
    }
    return (parameter as Placeholder)[NAME] as keyof Values & string
  })
  return { sql, names }
}

/** The parameters of one execution of `shape`, in the order its SQL takes them. */
export function parametersOf<Values>(shape: CompiledShape<Values>, values: Values): unknown[] {
  return shape.names.map((name) => values[name])
}

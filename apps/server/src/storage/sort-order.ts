import {
  type Expression,
  type Kysely,
  type RawBuilder,
  type Selection,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely'
import type { Dialect } from './migrations/dialect.js'
import type { Schema, TasksTable } from './tables.js'
import { matching, type TasksQuery, type Value } from './task-filter.js'
import type { ListFilter, SortName } from './terms.js'

/** The sorts other than id, each with the columns it orders by before the id. */
type KeyedSort = Exclude<SortName, 'id'>

const SORT_COLUMNS: Record<KeyedSort, readonly string[]> = {
  due: ['due_key'],
  priority: ['priority'],
  updated: ['updated_at'],
  position: ['list_id', 'position'],
}

/** The parameters a keyset binds for each sort's columns, before the id's. */
const KEY_VALUES: Record<KeyedSort, readonly ('keyNumber' | 'keyList' | 'keyText')[]> = {
  due: ['keyNumber'],
  priority: ['keyNumber'],
  updated: ['keyNumber'],
  position: ['keyList', 'keyText'],
}

/** The columns a sorted read selects besides the Task's: the due sort key. */
export const SORT_EXTRA_COLUMNS = ['due_key'] as const

type Direction = 'asc' | 'desc'
const directionOf = (filter: ListFilter): Direction => (filter.order === 'desc' ? 'desc' : 'asc')

/** A query that can be ordered by raw expressions and limited, whatever its tables. */
interface Orderable<Q> {
  orderBy(expression: Expression<unknown>, direction: Direction): Q
  limit(limit: number): Q
}

/**
 * The expressions a sort orders by, each as `column(name)` makes it: `due` puts undated
 * tasks last both ways (`due_key is null` first), and every sort ends with the id.
 */
export function orderExpressions(
  sort: KeyedSort,
  column: (name: string) => RawBuilder<unknown>,
): RawBuilder<unknown>[] {
  const columns = [...SORT_COLUMNS[sort], 'id'].map(column)
  return sort === 'due' ? [sql`${column('due_key')} is null`, ...columns] : columns
}

/** `query` in the order of `filter`'s sort, its columns named by `column`. */
export function ordered<Q extends Orderable<Q>>(
  query: Q,
  filter: ListFilter & { sort: KeyedSort },
  column: (name: string) => RawBuilder<unknown>,
): Q {
  const direction = directionOf(filter)
  let result = query
  for (const [i, expression] of orderExpressions(filter.sort, column).entries()) {
    // `is null` sorts false first: undated last however the dates go.
    const last = filter.sort === 'due' && i === 0
    result = result.orderBy(expression, last ? 'asc' : direction)
  }
  return result
}

/**
 * `query` narrowed to the tasks past the keyset `keys` of `(columns…, id)` in the order's
 * direction, as one query or several whose union it is. PostgreSQL seeks an index to a row
 * value (`(priority, id) > ($1, $2)`). SQLite seeks only on the columns before the id (its
 * rowid), then reads every task that ties on them: a sort with many ties (priority) would
 * read a great part of the index. There the range is cut in parts that each seek exactly:
 * `priority > $1`, then `priority = $1 and id > $2`.
 */
function pastKeyset(
  query: TasksQuery,
  dialect: Dialect,
  columns: readonly string[],
  keys: readonly unknown[],
  desc: boolean,
): TasksQuery[] {
  const all = [...columns, 'id']
  if (dialect === 'postgres') {
    const left = sql.join(all.map((name) => sql.ref(name)))
    return [query.where(sql<SqlBool>`(${left}) ${sql.raw(desc ? '<' : '>')} (${sql.join(keys)})`)]
  }
  return all.map((column, i) => {
    let part = query
    for (const [j, tied] of all.slice(0, i).entries()) {
      part = part.where(sql<SqlBool>`${sql.ref(tied)} = ${keys[j]}`)
    }
    return part.where(sql<SqlBool>`${sql.ref(column)} ${sql.raw(desc ? '<' : '>')} ${keys[i]}`)
  })
}

/**
 * The tasks of `filter` in its sort (not id), at most `limit`, each with `columns`: index
 * ranges from the keyset `filter.from` (the page before ended there) in the order of an
 * index that holds the sort's columns and the id. `due` reads the dated tasks, then the
 * undated ones (by id). Several parts are one statement: each ordered and limited, their
 * union ordered and limited again.
 */
export function sortedTasks<C extends keyof TasksTable & string>(
  db: Kysely<Schema>,
  dialect: Dialect,
  filter: ListFilter & { sort: KeyedSort },
  value: Value,
  columns: readonly C[],
): SelectQueryBuilder<Schema, 'tasks', Selection<Schema, 'tasks', C>> {
  return sortedQuery(db, dialect, filter, value, columns) as never
}

function sortedQuery(
  db: Kysely<Schema>,
  dialect: Dialect,
  filter: ListFilter & { sort: KeyedSort },
  value: Value,
  columns: readonly string[],
) {
  const desc = filter.order === 'desc'
  const direction = directionOf(filter)
  const keys = [...KEY_VALUES[filter.sort].map((name) => value(name)), value('keyId')]
  const base = () => matching(db, dialect, filter, value)
  /** A part in its order (`by`, then the id), limited. */
  const page = (query: TasksQuery, by: readonly string[]) => {
    let part = query.select(columns as never[])
    for (const name of [...by, 'id']) part = part.orderBy(sql.ref(name), direction)
    return part.limit(value('limit'))
  }
  /** `query` past the keyset when there is one, in the order of `by`, as parts. */
  const parts = (query: TasksQuery, by: readonly string[], at: readonly unknown[]) =>
    (filter.from === undefined ? [query] : pastKeyset(query, dialect, by, at, desc)).map((part) =>
      page(part, by),
    )
  let all: ReturnType<typeof page>[]
  if (filter.sort !== 'due') {
    all = parts(base(), SORT_COLUMNS[filter.sort], keys)
  } else if (filter.from?.key === null) {
    // The keyset is an undated task's: the dated part is behind it.
    all = parts(base().where('due_key', 'is', null), [], [value('keyId')])
  } else {
    all = parts(base().where('due_key', 'is not', null), ['due_key'], keys)
    // Past a dated task, every undated one follows; a filter of due dates leaves none.
    if (filter.due === undefined && filter.overdue === undefined) {
      all.push(page(base().where('due_key', 'is', null), []))
    }
  }
  const [only] = all
  if (all.length === 1 && only !== undefined) return only
  const union = all
    .map((part, i) => db.selectFrom(part.as(`k${i}`)).selectAll())
    .reduce((left, right) => left.unionAll(right))
  return ordered(db.selectFrom(union.as('p')).selectAll(), filter, (name) =>
    sql.ref(`p.${name}`),
  ).limit(value('limit'))
}

/** Whether `filter` sorts by something other than the id. */
export const isKeyed = (filter: ListFilter): filter is ListFilter & { sort: KeyedSort } =>
  filter.sort !== undefined && filter.sort !== 'id'

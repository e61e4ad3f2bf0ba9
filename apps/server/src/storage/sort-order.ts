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

/** Tasks past the keyset `(columns…, id)` in the order's direction: a row value comparison. */
function past(
  query: TasksQuery,
  columns: readonly string[],
  keys: readonly unknown[],
  desc: boolean,
) {
  const left = sql.join([...columns, 'id'].map((name) => sql.ref(name)))
  const right = sql.join(keys)
  return query.where(sql<SqlBool>`(${left}) ${sql.raw(desc ? '<' : '>')} (${right})`)
}

/**
 * The tasks of `filter` in its sort (not id), at most `limit`, each with `columns`: an
 * index range from the keyset `filter.from` (the page before ended there) in the order of
 * an index that holds the sort's columns and the id. `due` reads the dated tasks, then the
 * undated ones (by id), as two ordered parts of one statement.
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
  const select = (query: TasksQuery) => query.select(columns as never[])
  if (filter.sort !== 'due') {
    let query = base()
    if (filter.from !== undefined) query = past(query, SORT_COLUMNS[filter.sort], keys, desc)
    return ordered(select(query), filter, (name) => sql.ref(name)).limit(value('limit'))
  }
  const undated = () => {
    let query = base().where('due_key', 'is', null)
    // Past the keyset only when it is an undated task's; past a dated one, all of them follow.
    if (filter.from?.key === null) query = past(query, [], [value('keyId')], desc)
    return select(query).orderBy('id', direction).limit(value('limit'))
  }
  // The keyset is in the undated part already: the dated part is behind it.
  if (filter.from?.key === null) return undated()
  let dated = base().where('due_key', 'is not', null)
  if (filter.from !== undefined) dated = past(dated, ['due_key'], keys, desc)
  const datedPart = select(dated).orderBy('due_key', direction).orderBy('id', direction)
  // A filter of due dates leaves no undated task: no need to look for one.
  if (filter.due !== undefined || filter.overdue !== undefined) {
    return datedPart.limit(value('limit'))
  }
  const parts = db
    .selectFrom(datedPart.limit(value('limit')).as('d'))
    .selectAll()
    .unionAll(db.selectFrom(undated().as('u')).selectAll())
  return ordered(db.selectFrom(parts.as('p')).selectAll(), filter, (name) =>
    sql.ref(`p.${name}`),
  ).limit(value('limit'))
}

/** Whether `filter` sorts by something other than the id. */
export const isKeyed = (filter: ListFilter): filter is ListFilter & { sort: KeyedSort } =>
  filter.sort !== undefined && filter.sort !== 'id'

import { type Kysely, sql } from 'kysely'
import type { Dialect } from './migrations/dialect.js'
import type { RowStatus, Schema } from './tables.js'
import type { ListFilter } from './terms.js'

/** Every value a read may take; each shape uses some of them. */
export interface ReadValues {
  id: number
  after: number
  before: number
  tag: string
  status: string
  /** One list (`list_id = ?`). */
  list: number
  /** Several lists: a JSON array on SQLite, an array on PostgreSQL. */
  lists: string | readonly number[]
  limit: number
  principal: string
  hash: string
}

export type Value = <K extends keyof ReadValues & string>(name: K) => ReadValues[K]

const DELETED = sql.lit<RowStatus>('deleted')

/** The live tasks a filter lists, in its order (without a select list). */
export function filtered(db: Kysely<Schema>, dialect: Dialect, filter: ListFilter, value: Value) {
  let query = db.selectFrom('tasks').where('id', '>', value('after'))
  if (filter.before !== undefined) query = query.where('id', '<', value('before'))
  if (filter.tag !== undefined) query = query.where('tag', '=', value('tag'))
  if (filter.lists?.length === 1) query = query.where('list_id', '=', value('list'))
  else if (filter.lists !== undefined) {
    const lists = value('lists')
    query = query.where(
      'list_id',
      'in',
      dialect === 'sqlite'
        ? sql<number>`(select value from json_each(${lists}))`
        : sql<number>`(select unnest(${lists}::bigint[]))`,
    )
  }
  query =
    filter.status === undefined
      ? query.where('status', '<>', DELETED)
      : query.where('status', '=', value('status') as RowStatus)
  return query.orderBy('id', filter.order === 'desc' ? 'desc' : 'asc')
}

export const filterKey = (filter: ListFilter) =>
  `${filter.before !== undefined}:${filter.tag !== undefined}:${filter.status !== undefined}:${filter.order === 'desc'}:${filter.lists === undefined ? '*' : Math.min(filter.lists.length, 2)}`

export function filterValues(dialect: Dialect, filter: ListFilter): Partial<ReadValues> {
  const { lists } = filter
  return {
    after: filter.after ?? 0,
    before: filter.before,
    tag: filter.tag,
    status: filter.status,
    list: lists?.[0],
    lists: lists === undefined ? undefined : dialect === 'sqlite' ? JSON.stringify(lists) : lists,
  }
}

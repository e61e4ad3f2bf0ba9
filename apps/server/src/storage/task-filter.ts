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
  priority: number
  dueFromDay: string
  dueToDay: string
  dueFromAt: number
  dueToAt: number
  dueKeyFrom: number
  dueKeyTo: number
  today: string
  now: number
  overdueKeyTo: number
  /** The pattern of the longest word of a search, which the search index answers. */
  searchFirst: string
  /** The patterns of every word: a JSON array on SQLite, an array on PostgreSQL. */
  searchAll: string | readonly string[]
  /** A keyset's parts: a numeric key, a list id and position, the id. */
  keyNumber: number
  keyList: number
  keyText: string
  keyId: number
}

export type Value = <K extends keyof ReadValues & string>(name: K) => ReadValues[K]

const DELETED = sql.lit<RowStatus>('deleted')
const OPEN = sql.lit<RowStatus>('open')

/**
 * The live tasks a filter lists, unordered (without a select list). `after` is compared
 * always in the id order (its shapes are as they were before other sorts existed), and
 * only when given in the others, where an id range would mislead the planner.
 */
export function matching(db: Kysely<Schema>, dialect: Dialect, filter: ListFilter, value: Value) {
  const column = steered(dialect, filter)
  let query = db.selectFrom('tasks')
  if (sortOf(filter) === 'id' || filter.after !== undefined) {
    query = query.where('id', '>', value('after'))
  }
  if (filter.before !== undefined) query = query.where('id', '<', value('before'))
  if (filter.tag !== undefined) query = query.where(column<string>('tag'), '=', value('tag'))
  if (filter.lists?.length === 1) query = query.where(column<number>('list_id'), '=', value('list'))
  else if (filter.lists !== undefined) {
    const lists = value('lists')
    query = query.where(
      column<number>('list_id'),
      'in',
      dialect === 'sqlite'
        ? sql<number>`(select value from json_each(${lists}))`
        : sql<number>`(select unnest(${lists}::bigint[]))`,
    )
  }
  query =
    filter.status === undefined
      ? query.where('status', '<>', DELETED)
      : query.where(column<RowStatus>('status'), '=', value('status') as RowStatus)
  if (filter.priority !== undefined) query = query.where('priority', '=', value('priority'))
  const { due, overdue, words } = filter
  if (due !== undefined) {
    if (due.keyFrom !== undefined) query = query.where('due_key', '>=', value('dueKeyFrom'))
    if (due.keyTo !== undefined) query = query.where('due_key', '<', value('dueKeyTo'))
    query = query.where((eb) => {
      const days = []
      const moments = []
      if (due.fromDay !== undefined) days.push(eb('due_day', '>=', value('dueFromDay')))
      if (due.toDay !== undefined) days.push(eb('due_day', '<=', value('dueToDay')))
      if (due.fromAt !== undefined) moments.push(eb('due_at', '>=', value('dueFromAt')))
      if (due.toAt !== undefined) moments.push(eb('due_at', '<', value('dueToAt')))
      return eb.or([eb.and(days), eb.and(moments)])
    })
  }
  if (overdue !== undefined) {
    query = query
      .where(column<RowStatus>('status'), '=', OPEN)
      .where('due_key', '<', value('overdueKeyTo'))
      .where((eb) => eb.or([eb('due_day', '<', value('today')), eb('due_at', '<', value('now'))]))
  }
  if (words !== undefined) query = searched(query, dialect, words.length, value)
  return query
}

/**
 * How the filters of a listing name their columns. SQLite keeps no statistics here, so it
 * takes any index an equality can use (a tag's, a status's, a list's) and sorts every
 * match: in another order than id (and than a list's manual order, which starts with the
 * list), those columns are written `+column`, which no index serves, and the planner walks
 * the sort's index instead, stopping once the page is full. PostgreSQL chooses by its
 * statistics.
 */
function steered(dialect: Dialect, filter: ListFilter) {
  const sort = sortOf(filter)
  const walk = dialect === 'sqlite' && sort !== 'id'
  return <T>(name: 'tag' | 'status' | 'list_id') =>
    walk && !(sort === 'position' && name === 'list_id')
      ? sql<T>`+${sql.ref(name)}`
      : sql.ref<T>(name)
}

const tasksOf = (db: Kysely<Schema>) => db.selectFrom('tasks')
/** A query of the tasks table, filtered but not yet ordered or selected. */
export type TasksQuery = ReturnType<typeof tasksOf>

/**
 * Tasks whose search text holds ` word` for each word: the longest word through the search
 * index (SQLite's FTS5 trigram table, PostgreSQL's pg_trgm index), every word by LIKE on
 * the row itself, so both backends answer exactly the same. No word: no task.
 */
function searched(query: TasksQuery, dialect: Dialect, count: number, value: Value): TasksQuery {
  if (count === 0) return query.where(sql<boolean>`1 = 0`)
  const first = value('searchFirst')
  const all = value('searchAll')
  if (dialect === 'sqlite') {
    return query
      .where('id', 'in', sql<number>`(select rowid from tasks_search where search like ${first})`)
      .where(sql<boolean>`not exists (select 1 from json_each(${all}) where search not like value)`)
  }
  return query.where('search', 'like', first).where(sql<boolean>`search like all (${all}::text[])`)
}

/** The sort a filter asks for. */
export const sortOf = (filter: ListFilter) => filter.sort ?? 'id'

/** The live tasks a filter lists in the id order (without a select list). */
export function filtered(db: Kysely<Schema>, dialect: Dialect, filter: ListFilter, value: Value) {
  return matching(db, dialect, filter, value).orderBy(
    'id',
    filter.order === 'desc' ? 'desc' : 'asc',
  )
}

/** What makes one filter's SQL differ from another's: the shapes' cache key. */
export function filterKey(filter: ListFilter): string {
  const base = `${filter.before !== undefined}:${filter.tag !== undefined}:${filter.status !== undefined}:${filter.order === 'desc'}:${filter.lists === undefined ? '*' : Math.min(filter.lists.length, 2)}`
  const sort = sortOf(filter)
  const { due, from } = filter
  const planning = [
    filter.priority !== undefined,
    due === undefined
      ? '-'
      : [due.fromDay, due.toDay, due.fromAt, due.toAt, due.keyFrom, due.keyTo]
          .map((part) => (part === undefined ? 0 : 1))
          .join(''),
    filter.overdue !== undefined,
    filter.words === undefined ? '-' : Math.min(filter.words.length, 1),
  ].join(':')
  if (sort === 'id') return planning === 'false:-:false:-' ? base : `${base}:${planning}`
  const at = from === undefined ? '-' : from.key === null ? 'null' : 'key'
  return `${base}:${planning}:${sort}:${at}:${filter.after !== undefined}`
}

/** The values a filter binds. */
export function filterValues(dialect: Dialect, filter: ListFilter): Partial<ReadValues> {
  const { lists, due, overdue, words, from } = filter
  const patterns = words?.map((word) => `% ${word}%`)
  const longest = patterns?.reduce((a, b) => (b.length > a.length ? b : a), '')
  const values: Partial<ReadValues> = {
    after: filter.after ?? 0,
    before: filter.before,
    tag: filter.tag,
    status: filter.status,
    list: lists?.[0],
    lists: lists === undefined ? undefined : dialect === 'sqlite' ? JSON.stringify(lists) : lists,
    priority: filter.priority,
    dueFromDay: due?.fromDay,
    dueToDay: due?.toDay,
    dueFromAt: due?.fromAt,
    dueToAt: due?.toAt,
    dueKeyFrom: due?.keyFrom,
    dueKeyTo: due?.keyTo,
    today: overdue?.today,
    now: overdue?.now,
    overdueKeyTo: overdue?.keyTo,
    searchFirst: longest,
    searchAll:
      patterns === undefined
        ? undefined
        : dialect === 'sqlite'
          ? JSON.stringify(patterns)
          : patterns,
    keyId: from?.id,
  }
  const key = from?.key
  if (typeof key === 'number') values.keyNumber = key
  else if (key !== null && key !== undefined) {
    values.keyList = key[0]
    values.keyText = key[1]
  }
  return values
}

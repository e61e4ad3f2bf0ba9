import { createHash } from 'node:crypto'
import type { ListTasksQuery, Task } from '@tasklane/contract'
import { BadRequestError } from '../domain/domain-errors.js'
import { dueParts } from '../domain/due.js'
import type { Keyset, SortKey, SortName } from '../storage/open-storage.js'

/**
 * A page's `cursor` in a sort other than id: base64url of JSON `{ s, o, k, i, f }`, the
 * sort, the order, the last task's sort key and id (a keyset: the next page starts past
 * it, whatever was created, changed or deleted meanwhile), and a digest of every filter.
 * A cursor is good only for the listing that made it: another sort, order or filter is a
 * 400, as is anything that is not such a cursor.
 */
interface CursorJson {
  readonly s: SortName
  readonly o: 'asc' | 'desc'
  readonly k: SortKey
  readonly i: number
  readonly f: string
}

const BAD_CURSOR =
  'Query parameter "cursor" must be one that a Link of this listing gave (same sort, order and filters).'

/** The digest of what a listing filters by: a cursor carries it, and must match it. */
function filtersDigest(query: ListTasksQuery): string {
  const { after, before, tag, status, list, priority, dueFrom, dueTo, tz, overdue, q } = query
  const filters = [after, before, tag, status, list, priority, dueFrom, dueTo, tz, overdue, q]
  return createHash('sha256')
    .update(JSON.stringify(filters.map((part) => part ?? null)))
    .digest('base64url')
    .slice(0, 16)
}

/** A task's key in `sort`: what a keyset compares before the id. */
export function sortKeyOf(sort: Exclude<SortName, 'id'>, task: Task): SortKey {
  switch (sort) {
    case 'due':
      return task.due === undefined ? null : dueParts(task.due).key
    case 'priority':
      return task.priority
    case 'updated':
      return Date.parse(task.updatedAt)
    case 'position':
      return [task.listId, task.position]
  }
}

/** The cursor of the page of `query` that ends with `task`. */
export function encodeCursor(
  query: ListTasksQuery,
  sort: Exclude<SortName, 'id'>,
  task: Task,
): string {
  const json: CursorJson = {
    s: sort,
    o: query.order ?? 'asc',
    k: sortKeyOf(sort, task),
    i: task.id,
    f: filtersDigest(query),
  }
  return Buffer.from(JSON.stringify(json)).toString('base64url')
}

const isId = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 1

/** Whether `key` is one that `sort` could have made. */
function fitsSort(sort: SortName, key: unknown): key is SortKey {
  switch (sort) {
    case 'due':
      return key === null || Number.isSafeInteger(key)
    case 'priority':
    case 'updated':
      return Number.isSafeInteger(key)
    case 'position':
      return Array.isArray(key) && key.length === 2 && isId(key[0]) && typeof key[1] === 'string'
    default:
      return false
  }
}

/** The keyset `query.cursor` names, checked against the listing `query` asks for. */
export function decodeCursor(query: ListTasksQuery, sort: SortName, cursor: string): Keyset {
  if (sort === 'id') {
    throw new BadRequestError(
      'Query parameter "cursor" pages a sort other than id; sort=id pages with after and before.',
    )
  }
  let json: Partial<CursorJson>
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw new BadRequestError(BAD_CURSOR)
  }
  if (
    typeof json !== 'object' ||
    json === null ||
    json.s !== sort ||
    json.o !== (query.order ?? 'asc') ||
    json.f !== filtersDigest(query) ||
    !isId(json.i) ||
    !fitsSort(sort, json.k)
  ) {
    throw new BadRequestError(BAD_CURSOR)
  }
  return { key: json.k, id: json.i }
}

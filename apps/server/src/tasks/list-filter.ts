import type { ListTasksQuery } from '@tasklane/contract'
import { BadRequestError } from '../domain/domain-errors.js'
import { dayAt, isTimeZone, nextDay, startOfDay } from '../domain/due.js'
import { searchWords } from '../domain/search-text.js'
import type { DueRange, ListFilter, Overdue } from '../storage/open-storage.js'
import { decodeCursor } from './page-cursor.js'

/** The zone days are counted in when `tz` is not given. */
const DEFAULT_ZONE = 'UTC'

/** The zone `tz` names, checked: a name the platform does not know is a 400 naming tz. */
export function zoneOf(tz: string | undefined): string {
  if (tz === undefined) return DEFAULT_ZONE
  if (!isTimeZone(tz)) {
    throw new BadRequestError(
      'Query parameter "tz" must be an IANA time zone name such as Europe/Paris.',
    )
  }
  return tz
}

/**
 * `dueFrom`/`dueTo` as the database compares them: a day by its text, a moment by its
 * instant against the starts of those days in `zone` (the platform's time zone rules, so
 * right for any offset, +14:00 or −11:00, and across a change of daylight saving time).
 */
export function dueRangeOf(
  dueFrom: string | undefined,
  dueTo: string | undefined,
  zone: string,
): DueRange | undefined {
  if (dueFrom === undefined && dueTo === undefined) return undefined
  const range: { -readonly [K in keyof DueRange]: DueRange[K] } = {}
  if (dueFrom !== undefined) {
    range.fromDay = dueFrom
    range.fromAt = startOfDay(dueFrom, zone)
    // A day's sort key is the end of its UTC day: never before the start of it.
    range.keyFrom = Math.min(range.fromAt, startOfDay(dueFrom, 'UTC'))
  }
  if (dueTo !== undefined) {
    const after = nextDay(dueTo)
    range.toDay = dueTo
    range.toAt = startOfDay(after, zone)
    range.keyTo = Math.max(range.toAt, startOfDay(after, 'UTC'))
  }
  return range
}

/** `overdue=true` at `now`: a day is due until it ends in `zone`, a moment until its instant. */
export function overdueAt(now: number, zone: string): Overdue {
  const today = dayAt(now, zone)
  // Every day before today has a key (the end of its UTC day) before today starts in UTC.
  return { today, now, keyTo: Math.max(now, startOfDay(today, 'UTC')) }
}

/**
 * What the listing `query` asks for, as storage reads it, of `lists` (undefined: every
 * list), at `now`: its sort, the keyset its cursor names, and every filter. Throws
 * BadRequestError for a zone that does not exist or a cursor this listing did not make.
 */
export function listFilterOf(
  query: ListTasksQuery,
  lists: readonly number[] | undefined,
  now: number,
): ListFilter {
  const { after, before, tag, status, order, sort = 'id', priority, cursor, q } = query
  const zone = zoneOf(query.tz)
  return {
    after,
    before,
    tag,
    status,
    order,
    lists,
    sort,
    from: cursor === undefined ? undefined : decodeCursor(query, sort, cursor),
    priority,
    due: dueRangeOf(query.dueFrom, query.dueTo, zone),
    overdue: query.overdue === 'true' ? overdueAt(now, zone) : undefined,
    words: q === undefined ? undefined : searchWords(q),
  }
}

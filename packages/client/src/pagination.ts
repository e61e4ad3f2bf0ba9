import { queryString } from './utils/query-string.js'

/** Items per page of `tasks()`, `lists()` and `history()` when the caller names no `pageSize`. */
const DEFAULT_PAGE_SIZE = 100

/** The page size a pager asked for, or the default; a RangeError unless a positive integer. */
export function pageSizeOf(pageSize = DEFAULT_PAGE_SIZE): number {
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`pageSize must be a positive integer, got ${pageSize}.`)
  }
  return pageSize
}

/** The query string of one page's request, by parameter; undefined values are left out. */
export type PageQuery = Record<string, string | number | undefined>

/** One page as `paginate` needs it: its items and the response's `Link` header. */
export interface Page<T> {
  items: T[]
  link: string | null
}

/**
 * The query parameters of the `rel="next"` target of an RFC 8288 `Link` header, if any:
 * the next page as the server means it (`after`, `before` or an opaque `cursor`, with every
 * filter and the sort). Only the query is taken: the client builds the URL itself, so a
 * path prefix of `baseUrl` is kept.
 */
export function nextQuery(link: string | null): Record<string, string> | undefined {
  for (const [, target, params] of (link ?? '').matchAll(/<([^>]*)>([^,]*)/g)) {
    if (!/;\s*rel="?[^"]*\bnext\b/i.test(params ?? '')) continue
    const query: Record<string, string> = {}
    new URL(target ?? '', 'http://x').searchParams.forEach((value, name) => {
      query[name] = value
    })
    if (Object.keys(query).length > 0) return query
  }
  return undefined
}

/** Where a walk starts, and how it goes on when no `Link` ever comes. */
export interface WalkOptions<T> {
  /** The query of the first page. */
  first: PageQuery
  /** Items asked for per page (the `limit` of `first`). */
  pageSize: number
  /**
   * The query of the page after one that ended at `last`, for a server whose `Link` header
   * the client cannot read (a browser reads none without CORS exposure): a full page then
   * means "ask once more". Without it, such a walk ends at its first page.
   */
  after?: ((last: T) => PageQuery) | undefined
}

/**
 * Every item of a paginated listing, fetching a page when the loop needs one:
 * `fetchPage(query)` reads one page. Follows the Link header's next target, whatever it
 * carries (one that would ask for the same page again ends the walk); where none was ever
 * seen, a full page is followed by `after(last item)`.
 */
export async function* paginate<T>(
  fetchPage: (query: PageQuery) => Promise<Page<T>>,
  { first, pageSize, after }: WalkOptions<T>,
): AsyncGenerator<T, void, undefined> {
  let query = first
  let linkSeen = false
  for (;;) {
    const { items, link } = await fetchPage(query)
    yield* items
    const target = nextQuery(link)
    const next =
      target !== undefined && queryString(target) !== queryString(query) ? target : undefined
    linkSeen ||= target !== undefined
    const last = items.at(-1)
    if (next !== undefined) query = next
    else if (!linkSeen && after && last !== undefined && items.length >= pageSize) {
      query = after(last)
    } else return
  }
}

/** Items per page of `tasks()` and `lists()` when the caller names no `pageSize`. */
const DEFAULT_PAGE_SIZE = 100

/** The page size a pager asked for, or the default; a RangeError unless a positive integer. */
export function pageSizeOf(pageSize = DEFAULT_PAGE_SIZE): number {
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`pageSize must be a positive integer, got ${pageSize}.`)
  }
  return pageSize
}

/** The two keyset cursors: `after` walks oldest first, `before` newest first. */
export type Cursor = 'after' | 'before'

/** One page as `paginate` needs it: its items and the response's `Link` header. */
export interface Page<T> {
  items: T[]
  link: string | null
}

/**
 * The `cursor` parameter of the `rel="next"` target of an RFC 8288 `Link` header, if any.
 * Only the cursor is taken: the client builds the URL itself, so a path prefix of `baseUrl`
 * is kept.
 */
export function nextCursor(link: string | null, cursor: Cursor): number | undefined {
  for (const [, target, params] of (link ?? '').matchAll(/<([^>]*)>([^,]*)/g)) {
    if (!/;\s*rel="?[^"]*\bnext\b/i.test(params ?? '')) continue
    const value = new URL(target ?? '', 'http://x').searchParams.get(cursor)
    if (value !== null && /^\d+$/.test(value)) return Number(value)
  }
  return undefined
}

/**
 * Every item of a keyset-paginated listing, fetching a page when the loop needs one:
 * `fetchPage(position)` reads the page after (or before) `position`, undefined for the
 * first. Follows the Link header's next cursor; where none was ever seen (a browser reads
 * no Link without CORS exposure), a full page means "ask once more", after its last id.
 */
export async function* paginate<T extends { id: number }>(
  fetchPage: (position: number | undefined) => Promise<Page<T>>,
  { cursor, pageSize, start }: { cursor: Cursor; pageSize: number; start?: number | undefined },
): AsyncGenerator<T, void, undefined> {
  let position = start
  let linkSeen = false
  for (;;) {
    const { items, link } = await fetchPage(position)
    yield* items
    const next = nextCursor(link, cursor)
    linkSeen ||= next !== undefined
    const last = items.at(-1)
    if (next !== undefined) position = next
    else if (!linkSeen && last !== undefined && items.length >= pageSize) position = last.id
    else return
  }
}

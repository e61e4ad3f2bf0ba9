import type { ListTasksQuery } from '@tasklane/contract'

/** How a listing is written: a JSON array, or one JSON Task per line. */
export type Format = 'json' | 'ndjson'

/** A page of GET /tasks as sent: the serialized body, its `Link` header, and the seq it reflects. */
export interface CachedPage {
  readonly body: string | Buffer
  readonly link: string | undefined
  readonly seq: number
  /** The access seq of the snapshot it was read in. */
  readonly accessSeq: number
  /** True when it holds no task. */
  readonly empty: boolean
}

/**
 * Pages as last read, each with the seq it reflects. A page is served again only while the
 * database's newest seq is still that seq: nothing has been created, changed or deleted
 * since, on any instance, so the page is what a read would answer now. Least recently used
 * pages go first.
 */
export class PageCache {
  readonly #pages = new Map<string, CachedPage>()
  #size = 0

  /** At most `maxPages` pages and `maxChars` characters (or bytes) of bodies. */
  constructor(
    readonly maxPages = 2048,
    readonly maxChars = 32 * 1024 * 1024,
  ) {}

  /** The key of a page: what it asks for, as `format`, of `lists` (undefined: every list). */
  static key(query: ListTasksQuery, format: Format, lists: readonly number[] | undefined): string {
    const { limit, after, before, order = 'asc', status, tag, sort = 'id', cursor } = query
    const of = lists === undefined ? '*' : lists.join(',')
    const { priority, dueFrom, dueTo, tz, overdue, q } = query
    // As JSON, which tells where it ends whatever the search words hold.
    const planning = JSON.stringify([sort, cursor, priority, dueFrom, dueTo, tz, overdue, q])
    // The tag goes last: it is the only other part that may contain the separator.
    return `${format}:${of}:${order}:${limit}:${after ?? 0}:${before ?? ''}:${status ?? ''}:${planning}:${tag === undefined ? '' : `=${tag}`}`
  }

  /** The page under `key` if it reflects `seq`. */
  get(key: string, seq: number): CachedPage | undefined {
    const page = this.#pages.get(key)
    if (page === undefined || page.seq !== seq) return undefined
    this.#pages.delete(key)
    this.#pages.set(key, page)
    return page
  }

  /** Whether a page is kept under `key`, whatever its seq. */
  has(key: string): boolean {
    return this.#pages.has(key)
  }

  set(key: string, page: CachedPage): void {
    if (page.body.length > this.maxChars) return
    const old = this.#pages.get(key)
    if (old) {
      this.#pages.delete(key)
      this.#size -= old.body.length
    }
    this.#pages.set(key, page)
    this.#size += page.body.length
    // Bounded in count and in size, so that requests for many distinct large pages
    // cannot grow the server's memory.
    while (this.#pages.size > this.maxPages || this.#size > this.maxChars) {
      const [oldest, evicted] = this.#pages.entries().next().value as [string, CachedPage]
      this.#pages.delete(oldest)
      this.#size -= evicted.body.length
    }
  }
}

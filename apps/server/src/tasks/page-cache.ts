import type { ListTasksQuery } from '@tasklane/contract'

/** How a listing is written: a JSON array, or one JSON Task per line. */
export type Format = 'json' | 'ndjson'

/** A page of GET /tasks as sent: the serialized body and its `Link` header, if any. */
export interface CachedPage {
  readonly body: string | Buffer
  readonly link: string | undefined
}

/**
 * Pages that can never change. Ids only grow (in commit order, on every backend) and
 * tasks are never edited or deleted, so some pages are final: listing.ts decides which
 * (an ascending page with a task after it; a descending one whose ids below it are all
 * assigned) and only those are kept. Least recently used pages go first.
 */
export class PageCache {
  readonly #pages = new Map<string, CachedPage>()
  #size = 0

  /** At most `maxPages` pages and `maxChars` characters (or bytes) of bodies. */
  constructor(
    readonly maxPages = 2048,
    readonly maxChars = 32 * 1024 * 1024,
  ) {}

  static key(query: ListTasksQuery, format: Format): string {
    const { limit, after, before, order = 'asc', tag } = query
    // The tag goes last: it is the only part that may contain the separator.
    return `${format}:${order}:${limit}:${after ?? 0}:${before ?? ''}:${tag === undefined ? '' : `=${tag}`}`
  }

  get(key: string): CachedPage | undefined {
    const page = this.#pages.get(key)
    if (page) {
      this.#pages.delete(key)
      this.#pages.set(key, page)
    }
    return page
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

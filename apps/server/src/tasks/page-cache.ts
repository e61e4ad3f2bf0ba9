/** A page of GET /tasks as sent: the serialized body and its `Link` header. */
export interface CachedPage {
  readonly body: string
  readonly link: string
}

/**
 * Full pages never change: ids only grow (in commit order, on every backend) and tasks
 * are never edited or deleted, so once `limit` tasks and at least one more exist after a
 * cursor, that page and its `Link` are final. Only those pages are cached; the last,
 * partial page is always read afresh. Least recently used pages go first.
 */
export class PageCache {
  readonly #pages = new Map<string, CachedPage>()
  #size = 0

  /** At most `maxPages` pages and `maxChars` characters of bodies (about that many bytes). */
  constructor(
    readonly maxPages = 2048,
    readonly maxChars = 32 * 1024 * 1024,
  ) {}

  static key(limit: number, after: number | undefined, tag: string | undefined): string {
    // The tag goes last: it is the only part that may contain the separator.
    return `${limit}:${after ?? 0}:${tag === undefined ? '' : `=${tag}`}`
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

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

  constructor(readonly maxPages = 2048) {}

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
    this.#pages.set(key, page)
    if (this.#pages.size > this.maxPages) {
      this.#pages.delete(this.#pages.keys().next().value as string)
    }
  }
}

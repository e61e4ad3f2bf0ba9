import { Readable } from 'node:stream'
import type { ListTasksQuery, Task } from '@tasklane/contract'
import { TooManyStreamsError } from '../domain/domain-errors.js'
import type { ListFilter, Snapshot, Storage } from '../storage/open-storage.js'
import { listFilterOf } from './list-filter.js'
import {
  endOfLargePage,
  endOfSortedPage,
  jsonArray,
  ndjson,
  ndjsonLines,
  readingAhead,
  taskChunks,
} from './listing-stream.js'
import { type CachedPage, type Format, PageCache } from './page-cache.js'
import { encodeCursor } from './page-cursor.js'
import { nextLink } from './page-links.js'
import type { TurnBudget } from './turn-budget.js'

/** Pages up to this size are built in memory; larger ones and the full list are streamed. */
export const BUFFERED_PAGE_MAX = 1000

/**
 * Options of Readable.from for a listing: one chunk read ahead at most, so a stream
 * stops reading while its socket is not draining, instead of filling memory or the
 * event loop with chunks nobody takes yet.
 */
const STREAM_OPTIONS = { objectMode: true, highWaterMark: 1 }

/** The media type of one JSON Task per line. */
export const NDJSON = 'application/x-ndjson'

const CONTENT_TYPES: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  ndjson: NDJSON,
}

/** A listing as it is to be sent: its body (in memory or streamed) and what its headers say. */
export interface ListingAnswer {
  readonly contentType: string
  /** The newest seq the listing reflects (`Tasklane-Seq`). */
  readonly seq: number
  /** The access seq of the snapshot it was read in. */
  readonly accessSeq: number
  /** Lets go of a streamed answer that will not be sent. */
  readonly discard?: (() => void) | undefined
  /** The `Link` to the next page, when the answer is a full page and more tasks follow. */
  readonly link: string | undefined
  readonly body: string | Buffer | Readable
  /** True when it holds no task (a streamed answer always holds some). */
  readonly empty: boolean
}

/**
 * Registers `listener` to run once the answer has been sent or its recipient has gone:
 * a streamed listing holds a snapshot and a stream slot until then.
 */
export type WhenDone = (listener: () => void) => void

/**
 * A body in memory as Fastify sends it unchanged: the JSON array as a string; NDJSON as
 * bytes, since Fastify appends a charset to any string body whose type mentions json.
 */
function body(format: Format, tasks: readonly Task[]): string | Buffer {
  return format === 'json' ? JSON.stringify(tasks) : Buffer.from(ndjson(tasks))
}

/** The Link to the page after one of `query` that ends with `last`. */
function linkAfter(query: ListTasksQuery, last: Task): string {
  const { sort = 'id' } = query
  return sort === 'id'
    ? nextLink(query, last.id)
    : nextLink(query, last.id, encodeCursor(query, sort, last))
}

/** A page of at most `limit` of `tasks` (read with one more, to know whether more follow). */
function page(
  query: ListTasksQuery,
  format: Format,
  tasks: Task[],
  limit: number,
  seq: number,
  accessSeq: number,
): CachedPage {
  const more = tasks.length > limit
  if (more) tasks.length = limit
  return {
    body: body(format, tasks),
    link: more ? linkAfter(query, tasks.at(-1) as Task) : undefined,
    seq,
    accessSeq,
    empty: tasks.length === 0,
  }
}

/**
 * GET /tasks: small pages are built in memory and kept while nothing changes; large pages
 * and the full list are streamed in chunks from one snapshot, so memory stays flat and
 * the whole answer reflects one `Tasklane-Seq`; as a JSON array, or one Task per line
 * when the client asks for NDJSON. At most `maxStreams` listings stream at once: past it,
 * TooManyStreamsError (503).
 */
export class Listing {
  readonly #storage: Storage
  readonly #maxStreams: number
  readonly #pages = new PageCache()
  /**
   * Pages being read again after a change, each under its key with the newest seq that its
   * readers saw: a request that saw the same seq joins the read instead of making its own.
   */
  readonly #rereads = new Map<string, { seq: number; page: Promise<CachedPage> }>()
  readonly #budget: TurnBudget
  /** Listings being streamed now. */
  #streams = 0

  constructor(
    storage: Storage,
    { maxStreams, budget }: { maxStreams: number; budget: TurnBudget },
  ) {
    this.#storage = storage
    this.#budget = budget
    // Each streamed listing holds a snapshot: no more stream than the storage can hold.
    this.#maxStreams = Math.min(maxStreams, storage.maxSnapshots)
  }

  /**
   * The listing `query` asks for, as `format`, of the tasks in `lists` (undefined: in every
   * list); `whenDone` tells when a stream may be let go.
   */
  async list(
    query: ListTasksQuery,
    format: Format,
    lists: readonly number[] | undefined,
    whenDone: WhenDone,
  ): Promise<ListingAnswer> {
    const { limit } = query
    const filter = listFilterOf(query, lists, Date.now())
    const contentType = CONTENT_TYPES[format]
    if (limit === 0) {
      const { seq, accessSeq } = await this.#storage.sequence()
      return { contentType, seq, accessSeq, link: undefined, body: body(format, []), empty: true }
    }
    // An overdue listing changes as time passes, with no change to mark it: never kept.
    if (limit !== undefined && limit <= BUFFERED_PAGE_MAX && query.overdue === 'true') {
      const { value: tasks, seq, accessSeq } = await this.#storage.readPage(filter, limit + 1)
      return { contentType, ...page(query, format, tasks, limit, seq, accessSeq) }
    }
    if (limit !== undefined && limit <= BUFFERED_PAGE_MAX) {
      const key = PageCache.key(query, format, lists)
      const read = () => this.#readPage(key, query, filter, limit, format)
      let page: CachedPage
      // Only a page kept before is worth checking the newest seq for.
      if (this.#pages.has(key)) {
        const seq = await this.#storage.newestSeq()
        page = this.#pages.get(key, seq) ?? (await this.#reread(key, seq, read))
      } else {
        page = await read()
      }
      return { contentType, ...page }
    }
    // Most full listings are small: read in one query, one that fits a page needs no
    // snapshot held across reads, nor one of the few stream slots (on PostgreSQL, a pooled
    // connection each). Only a listing past a page is streamed, from a snapshot.
    const {
      value: tasks,
      seq,
      accessSeq,
    } = await this.#storage.readPage(filter, BUFFERED_PAGE_MAX + 1)
    if (tasks.length <= BUFFERED_PAGE_MAX) {
      // All of it, and fewer than any limit over BUFFERED_PAGE_MAX: no page after it.
      const empty = tasks.length === 0
      return { contentType, seq, accessSeq, link: undefined, body: body(format, tasks), empty }
    }
    return this.#stream(query, filter, format, whenDone)
  }

  /**
   * The page under `key` read again, for a request that saw `seq` (the newest seq read after
   * it arrived) and found the kept page older. Requests that saw the same `seq` share that
   * read: once a change lands, the many requests of a turn for a popular page make one
   * query, not one each. Sharing is safe because no commit became visible between that seq
   * and the shared read's start (the seq would differ), so the read sees every change made
   * before any of its requests arrived.
   */
  #reread(key: string, seq: number, read: () => Promise<CachedPage>): Promise<CachedPage> {
    const pending = this.#rereads.get(key)
    if (pending?.seq === seq) return pending.page
    const reread = { seq, page: read() }
    this.#rereads.set(key, reread)
    const done = () => {
      if (this.#rereads.get(key) === reread) this.#rereads.delete(key)
    }
    reread.page.then(done, done)
    return reread.page
  }

  /** Reads the page `query` asks for, as sent, and keeps it under `key`. */
  async #readPage(
    key: string,
    query: ListTasksQuery,
    filter: ListFilter,
    limit: number,
    format: Format,
  ): Promise<CachedPage> {
    const { value: tasks, seq, accessSeq } = await this.#storage.readPage(filter, limit + 1)
    const read = page(query, format, tasks, limit, seq, accessSeq)
    this.#pages.set(key, read)
    return read
  }

  async #stream(
    query: ListTasksQuery,
    filter: ListFilter,
    format: Format,
    whenDone: WhenDone,
  ): Promise<ListingAnswer> {
    if (this.#streams >= this.#maxStreams) throw new TooManyStreamsError(this.#maxStreams)
    this.#streams++
    let snapshot: Snapshot | undefined
    let done = false
    // Counted, and its snapshot held, until the answer is sent or its recipient gone,
    // however it ends.
    whenDone(() => {
      done = true
      this.#streams--
      void snapshot?.close()
    })
    snapshot = await this.#storage.openSnapshot()
    if (done) await snapshot.close()
    const { seq, accessSeq } = snapshot
    const discard = () => void snapshot?.close()
    let link: string | undefined
    let chunks: AsyncGenerator<Task[]>
    try {
      if (query.limit !== undefined && filter.sort !== 'id') {
        const last = await endOfSortedPage(snapshot, this.#budget, filter, query.limit)
        if (last !== undefined) link = linkAfter(query, last)
      } else if (query.limit !== undefined) {
        const lastId = await endOfLargePage(snapshot, this.#budget, filter, query.limit)
        if (lastId !== undefined) link = nextLink(query, lastId)
      }
      chunks = await readingAhead(taskChunks(snapshot, this.#budget, filter, query.limit))
    } catch (error) {
      // The recipient left while the listing was being prepared: nobody to answer.
      if (done) {
        return { contentType: CONTENT_TYPES[format], seq, accessSeq, link, body: '', empty: true }
      }
      throw error
    }
    const text = format === 'json' ? jsonArray(chunks) : ndjsonLines(chunks)
    return {
      contentType: CONTENT_TYPES[format],
      seq,
      accessSeq,
      link,
      body: Readable.from(text, STREAM_OPTIONS),
      empty: false,
      discard,
    }
  }
}

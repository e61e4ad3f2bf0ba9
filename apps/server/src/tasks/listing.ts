import { Readable } from 'node:stream'
import type { ListTasksQuery, Task } from '@tasklane/contract'
import type { FastifyReply } from 'fastify'
import { TooManyStreamsError } from '../errors.js'
import type { ListFilter, Snapshot, Storage } from '../storage/index.js'
import { type CachedPage, type Format, PageCache } from './page-cache.js'
import { TurnBudget } from './turn-budget.js'

/** Pages up to this size are built in memory; larger ones and the full list are streamed. */
export const BUFFERED_PAGE_MAX = 1000

/**
 * Tasks read per query while streaming a large listing: small, so that each read (a
 * synchronous one on SQLite) holds the event loop briefly.
 */
const STREAM_CHUNK = 250

/** Ids read per query while finding where a large page ends (for its Link). */
const WALK_CHUNK = 1000

/**
 * Options of Readable.from for a listing: one chunk read ahead at most, so a stream
 * stops reading while its socket is not draining, instead of filling memory or the
 * event loop with chunks nobody takes yet.
 */
const STREAM_OPTIONS = { objectMode: true, highWaterMark: 1 }

/** Chunks read in one turn of the event loop, by all streams together. */
const CHUNKS_PER_TURN = 4

/** The media type of one JSON Task per line. */
export const NDJSON = 'application/x-ndjson'

const CONTENT_TYPES: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  ndjson: NDJSON,
}

/**
 * The `Link` to the page after one that ends at `lastId`: the cursor moves (`after`
 * ascending, `before` descending) and every other parameter stays.
 */
function nextLink(
  { limit, after, before, tag, status, order }: ListTasksQuery,
  lastId: number,
): string {
  const cursor =
    order === 'desc'
      ? `before=${lastId}&order=desc${after === undefined ? '' : `&after=${after}`}`
      : `after=${lastId}${before === undefined ? '' : `&before=${before}`}`
  const statusParam = status === undefined ? '' : `&status=${status}`
  const tagParam = tag === undefined ? '' : `&tag=${encodeURIComponent(tag)}`
  return `</tasks?limit=${limit}&${cursor}${statusParam}${tagParam}>; rel="next"`
}

/** The filter moved past `lastId` in its order. */
const past = (filter: ListFilter, lastId: number): ListFilter =>
  filter.order === 'desc' ? { ...filter, before: lastId } : { ...filter, after: lastId }

/**
 * Every task matching the filter (at most `limit`), as a series of short queries of
 * `chunk` rows each, all in one snapshot. Each chunk waits for its share of the event loop
 * (`budget`), so that many streams share the server fairly with every other request.
 */
async function* taskChunks(
  snapshot: Snapshot,
  budget: TurnBudget,
  filter: ListFilter,
  limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<Task[]> {
  let cursor = filter
  let remaining = limit
  while (remaining > 0) {
    const size = Math.min(STREAM_CHUNK, remaining)
    await budget.take()
    const tasks = await snapshot.listTasks(cursor, size)
    if (tasks.length > 0) yield tasks
    if (tasks.length < size) return
    remaining -= tasks.length
    cursor = past(cursor, (tasks.at(-1) as Task).id)
  }
}

/**
 * The last id of a page of `limit` tasks when more tasks follow it (so it needs a Link),
 * else undefined. When the ids between the first and last matching task are fewer than
 * `limit`, no task can follow: answered at once (`limit=2147483647`). Otherwise the ids
 * are walked a chunk at a time, each waiting for its share of the event loop.
 */
async function endOfLargePage(
  snapshot: Snapshot,
  budget: TurnBudget,
  filter: ListFilter,
  limit: number,
): Promise<number | undefined> {
  const [first] = await snapshot.listIds(filter, 1)
  if (first === undefined) return undefined
  const [last] = await snapshot.listIds(
    { ...filter, order: filter.order === 'desc' ? 'asc' : 'desc' },
    1,
  )
  if (Math.abs((last as number) - first) + 1 <= limit) return undefined
  let cursor = filter
  let seen = 0
  for (;;) {
    await budget.take()
    const want = Math.min(WALK_CHUNK, limit + 1 - seen)
    const ids = await snapshot.listIds(cursor, want)
    if (seen + ids.length > limit) return ids[limit - seen - 1]
    seen += ids.length
    if (ids.length < want) return undefined
    cursor = past(cursor, ids.at(-1) as number)
  }
}

/**
 * `chunks` with the first one read already: a database that cannot serve the listing
 * fails it before its 200 is sent, as a clean 503, rather than cutting it off after.
 */
async function readingAhead(chunks: AsyncGenerator<Task[]>): Promise<AsyncGenerator<Task[]>> {
  const first = await chunks.next()
  return (async function* () {
    if (first.done) return
    yield first.value
    yield* chunks
  })()
}

/** `[`, the tasks separated by commas, `]`, written as the chunks arrive. */
async function* jsonArray(chunks: AsyncIterable<Task[]>): AsyncGenerator<string> {
  let separator = '['
  for await (const tasks of chunks) {
    let text = ''
    for (const task of tasks) {
      text += separator + JSON.stringify(task)
      separator = ','
    }
    yield text
  }
  yield separator === '[' ? '[]' : ']'
}

/** One JSON Task per line, written as the chunks arrive. */
async function* ndjsonLines(chunks: AsyncIterable<Task[]>): AsyncGenerator<string> {
  for await (const tasks of chunks) yield ndjson(tasks)
}

function ndjson(tasks: readonly Task[]): string {
  let text = ''
  for (const task of tasks) text += `${JSON.stringify(task)}\n`
  return text
}

/**
 * A body in memory as Fastify sends it unchanged: the JSON array as a string; NDJSON as
 * bytes, since Fastify appends a charset to any string body whose type mentions json.
 */
function body(format: Format, text: string): string | Buffer {
  return format === 'json' ? text : Buffer.from(text)
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
  readonly #budget = new TurnBudget(CHUNKS_PER_TURN)
  /** Listings being streamed now. */
  #streams = 0

  constructor(storage: Storage, { maxStreams }: { maxStreams: number }) {
    this.#storage = storage
    // Each streamed listing holds a snapshot: no more stream than the storage can hold.
    this.#maxStreams = Math.min(maxStreams, storage.maxSnapshots)
  }

  async list(query: ListTasksQuery, format: Format, reply: FastifyReply): Promise<unknown> {
    const { limit, after, before, tag, status, order } = query
    const filter: ListFilter = { after, before, tag, status, order }
    // Added to what is there already (CORS varies by Origin).
    const vary = reply.getHeader('vary')
    reply.header('Vary', vary === undefined ? 'Accept' : `${vary}, Accept`)
    reply.type(CONTENT_TYPES[format])
    if (limit === 0) {
      reply.header('Tasklane-Seq', await this.#storage.newestSeq())
      return reply.send(body(format, format === 'json' ? '[]' : ''))
    }
    if (limit !== undefined && limit <= BUFFERED_PAGE_MAX) {
      const key = PageCache.key(query, format)
      const read = () => this.#readPage(key, query, filter, limit, format, reply)
      let page: CachedPage
      // Only a page kept before is worth checking the newest seq for.
      if (this.#pages.has(key)) {
        const seq = await this.#storage.newestSeq()
        page = this.#pages.get(key, seq) ?? (await this.#reread(key, seq, read))
      } else {
        page = await read()
      }
      if (page.link !== undefined) reply.header('Link', page.link)
      return reply.header('Tasklane-Seq', page.seq).send(page.body)
    }
    // Most full listings are small: read in one query, one that fits a page needs no
    // snapshot held across reads, nor one of the few stream slots (on PostgreSQL, a pooled
    // connection each). Only a listing past a page is streamed, from a snapshot.
    const { value: tasks, seq } = await this.#storage.listTasks(filter, BUFFERED_PAGE_MAX + 1)
    if (tasks.length <= BUFFERED_PAGE_MAX) {
      // All of it, and fewer than any limit over BUFFERED_PAGE_MAX: no page after it.
      const text = format === 'json' ? (reply.serialize(tasks) as string) : ndjson(tasks)
      return reply.header('Tasklane-Seq', seq).send(body(format, text))
    }
    return this.#stream(query, filter, format, reply)
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
    reply: FastifyReply,
  ): Promise<CachedPage> {
    const { value: tasks, seq } = await this.#storage.listTasks(filter, limit + 1)
    const more = tasks.length > limit
    if (more) tasks.length = limit
    const page = {
      // The JSON array goes through the route's schema, as any other 200 would.
      body: body(format, format === 'json' ? (reply.serialize(tasks) as string) : ndjson(tasks)),
      link: more ? nextLink(query, (tasks.at(-1) as Task).id) : undefined,
      seq,
    }
    this.#pages.set(key, page)
    return page
  }

  async #stream(
    query: ListTasksQuery,
    filter: ListFilter,
    format: Format,
    reply: FastifyReply,
  ): Promise<unknown> {
    if (this.#streams >= this.#maxStreams) throw new TooManyStreamsError(this.#maxStreams)
    this.#streams++
    let snapshot: Snapshot | undefined
    let done = false
    // Counted, and its snapshot held, until the response is done or its connection gone,
    // however it ends.
    reply.raw.once('close', () => {
      done = true
      this.#streams--
      void snapshot?.close()
    })
    snapshot = await this.#storage.openSnapshot()
    if (done) await snapshot.close()
    let chunks: AsyncGenerator<Task[]>
    try {
      reply.header('Tasklane-Seq', snapshot.seq)
      if (query.limit !== undefined) {
        const lastId = await endOfLargePage(snapshot, this.#budget, filter, query.limit)
        if (lastId !== undefined) reply.header('Link', nextLink(query, lastId))
      }
      chunks = await readingAhead(taskChunks(snapshot, this.#budget, filter, query.limit))
    } catch (error) {
      // The client left while the listing was being prepared: nobody to answer.
      if (done) return reply
      throw error
    }
    const text = format === 'json' ? jsonArray(chunks) : ndjsonLines(chunks)
    return reply.send(Readable.from(text, STREAM_OPTIONS))
  }
}

import { Readable } from 'node:stream'
import type { ListTasksQuery, Task } from '@tasklane/contract'
import type { FastifyReply } from 'fastify'
import { TooManyStreamsError } from '../errors.js'
import type { ListFilter, Storage } from '../storage/index.js'
import { type Format, PageCache } from './page-cache.js'
import { TurnBudget } from './turn-budget.js'

/** Pages up to this size are built in memory; larger ones and the full list are streamed. */
const BUFFERED_PAGE_MAX = 1000

/**
 * Tasks read per query while streaming a large listing: small, so that each read (a
 * synchronous one on SQLite) holds the event loop briefly.
 */
const STREAM_CHUNK = 250

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
function nextLink({ limit, after, before, tag, order }: ListTasksQuery, lastId: number): string {
  const cursor =
    order === 'desc'
      ? `before=${lastId}&order=desc${after === undefined ? '' : `&after=${after}`}`
      : `after=${lastId}${before === undefined ? '' : `&before=${before}`}`
  const tagParam = tag === undefined ? '' : `&tag=${encodeURIComponent(tag)}`
  return `</tasks?limit=${limit}&${cursor}${tagParam}>; rel="next"`
}

/**
 * Every task matching the filter (at most `limit`), as a series of short queries of
 * `chunk` rows each. No cursor stays open between chunks, so a slow reader never holds
 * the connection that other requests need, and stopping early releases nothing but
 * this generator. Each chunk waits for its share of the event loop (`budget`), so that
 * many streams share the server fairly with every other request.
 */
async function* taskChunks(
  storage: Storage,
  budget: TurnBudget,
  filter: ListFilter,
  limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<Task[]> {
  let cursor = filter
  let remaining = limit
  while (remaining > 0) {
    const size = Math.min(STREAM_CHUNK, remaining)
    await budget.take()
    const tasks = await storage.listTasks(cursor, size)
    if (tasks.length > 0) yield tasks
    if (tasks.length < size) return
    remaining -= tasks.length
    const last = (tasks.at(-1) as Task).id
    cursor = filter.order === 'desc' ? { ...cursor, before: last } : { ...cursor, after: last }
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
 * GET /tasks: small pages are built in memory, pages that can never change cached,
 * large pages and the full list streamed in chunks so memory stays flat; as a JSON array,
 * or one Task per line when the client asks for NDJSON. At most `maxStreams` listings
 * stream at once: past it, TooManyStreamsError (503).
 */
export function createListing(
  storage: Storage,
  { maxStreams = 100 }: { maxStreams?: number } = {},
) {
  const pages = new PageCache()
  /** Listings being streamed now. */
  let streams = 0
  const budget = new TurnBudget(CHUNKS_PER_TURN)
  /** An id known to be committed, hence every smaller one too: it only grows. */
  let committed = 0

  /**
   * Whether a page can never change. Ascending: once `limit` tasks and one more exist
   * after the cursor, no task can join them, since ids are assigned in commit order.
   * Descending, the first page changes with every create; a page `before=X` is final once
   * every id below X is assigned, i.e. once an id of at least X - 1 is known committed,
   * and only if that was known *before* the page was read (a task could commit in between).
   */
  async function finalAfterRead(query: ListTasksQuery): Promise<(more: boolean) => boolean> {
    if (query.order !== 'desc') return (more) => more
    const { before } = query
    if (before === undefined) return () => false
    if (before - 1 > committed) committed = Math.max(committed, await storage.newestId())
    const final = before - 1 <= committed
    return () => final
  }

  return async function list(
    query: ListTasksQuery,
    format: Format,
    reply: FastifyReply,
  ): Promise<unknown> {
    const { limit, after, before, tag, order } = query
    const filter: ListFilter = { after, before, tag, order }
    // Added to what is there already (CORS varies by Origin).
    const vary = reply.getHeader('vary')
    reply.header('Vary', vary === undefined ? 'Accept' : `${vary}, Accept`)
    reply.type(CONTENT_TYPES[format])
    if (limit === 0) return reply.send(body(format, format === 'json' ? '[]' : ''))
    if (limit !== undefined && limit <= BUFFERED_PAGE_MAX) {
      const key = PageCache.key(query, format)
      let page = pages.get(key)
      if (page === undefined) {
        const isFinal = await finalAfterRead(query)
        const tasks = await storage.listTasks(filter, limit + 1)
        const more = tasks.length > limit
        if (more) tasks.length = limit
        page = {
          // The JSON array goes through the route's schema, as any other 200 would.
          body: body(
            format,
            format === 'json' ? (reply.serialize(tasks) as string) : ndjson(tasks),
          ),
          link: more ? nextLink(query, (tasks.at(-1) as Task).id) : undefined,
        }
        if (isFinal(more)) pages.set(key, page)
      }
      if (page.link !== undefined) reply.header('Link', page.link)
      return reply.send(page.body)
    }
    if (streams >= maxStreams) throw new TooManyStreamsError(maxStreams)
    streams++
    // Counted until the response is done or its connection gone, however it ends.
    reply.raw.once('close', () => streams--)
    if (limit !== undefined) {
      // One query: the page's last id, and whether a task follows it.
      const [lastId, following] = await storage.taskIdsFrom(filter, limit, 2)
      if (lastId !== undefined && following !== undefined) {
        reply.header('Link', nextLink(query, lastId))
      }
    }
    const chunks = await readingAhead(taskChunks(storage, budget, filter, limit))
    const text = format === 'json' ? jsonArray(chunks) : ndjsonLines(chunks)
    return reply.send(Readable.from(text, STREAM_OPTIONS))
  }
}

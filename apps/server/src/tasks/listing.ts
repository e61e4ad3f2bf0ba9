import { Readable } from 'node:stream'
import type { Task } from '@tasklane/contract'
import type { FastifyReply } from 'fastify'
import type { ListFilter, Storage } from '../storage/index.js'
import { PageCache } from './page-cache.js'

/** Pages up to this size are built in memory; larger ones and the full list are streamed. */
const BUFFERED_PAGE_MAX = 1000

/** Tasks read per query while streaming a large listing. */
const STREAM_CHUNK = 1000

function nextLink(limit: number, lastId: number, tag: string | undefined): string {
  const tagParam = tag === undefined ? '' : `&tag=${encodeURIComponent(tag)}`
  return `</tasks?limit=${limit}&after=${lastId}${tagParam}>; rel="next"`
}

/**
 * Every task matching the filter (at most `limit`), as a series of short queries of
 * `chunk` rows each. No cursor stays open between chunks, so a slow reader never holds
 * the connection that other requests need, and stopping early releases nothing but
 * this generator.
 */
async function* taskChunks(
  storage: Storage,
  filter: ListFilter,
  limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<Task[]> {
  let after = filter.after ?? 0
  let remaining = limit
  while (remaining > 0) {
    const size = Math.min(STREAM_CHUNK, remaining)
    const tasks = await storage.listTasks({ ...filter, after }, size)
    if (tasks.length > 0) yield tasks
    if (tasks.length < size) return
    remaining -= tasks.length
    after = (tasks.at(-1) as Task).id
  }
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

/** The query of GET /tasks, as the contract parses it. */
export interface ListQuery {
  readonly limit?: number | undefined
  readonly after?: number | undefined
  readonly tag?: string | undefined
}

/**
 * GET /tasks: small pages are built in memory, full ones cached (they never change),
 * large pages and the full list streamed in chunks so memory stays flat.
 */
export function createListing(storage: Storage) {
  const pages = new PageCache()

  return async function list(query: ListQuery, reply: FastifyReply): Promise<unknown> {
    const { limit, after, tag } = query
    const filter: ListFilter = { after, tag }
    if (limit === 0) return []
    if (limit !== undefined && limit <= BUFFERED_PAGE_MAX) {
      const key = PageCache.key(limit, after, tag)
      let page = pages.get(key)
      if (page === undefined) {
        const tasks = await storage.listTasks(filter, limit + 1)
        if (tasks.length <= limit) return tasks // The last page: it may still grow.
        tasks.length = limit
        const last = (tasks.at(-1) as Task).id
        page = { body: reply.serialize(tasks) as string, link: nextLink(limit, last, tag) }
        pages.set(key, page)
      }
      // Sent as is: its body went through the route's schema once.
      return reply.header('Link', page.link).type('application/json; charset=utf-8').send(page.body)
    }
    if (limit !== undefined) {
      // One query: the page's last id, and whether a task follows it.
      const [lastId, following] = await storage.taskIdsFrom(filter, limit, 2)
      if (lastId !== undefined && following !== undefined) {
        reply.header('Link', nextLink(limit, lastId, tag))
      }
    }
    return reply
      .type('application/json; charset=utf-8')
      .send(Readable.from(jsonArray(taskChunks(storage, filter, limit))))
  }
}

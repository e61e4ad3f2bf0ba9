import type { Task } from '@tasklane/contract'
import type { ListFilter, Snapshot } from '../storage/open-storage.js'
import { sortKeyOf } from './page-cursor.js'
import type { TurnBudget } from './turn-budget.js'

/**
 * Tasks read per query while streaming a large listing: small, so that each read (a
 * synchronous one on SQLite) holds the event loop briefly.
 */
const STREAM_CHUNK = 250

/** Ids read per query while finding where a large page ends (for its Link). */
const WALK_CHUNK = 1000

/** The filter moved past `lastId` in the id order. */
export const past = (filter: ListFilter, lastId: number): ListFilter =>
  filter.order === 'desc' ? { ...filter, before: lastId } : { ...filter, after: lastId }

/** The filter moved past `last` in its order: its id, or its keyset in another sort. */
export function pastTask(filter: ListFilter, last: Task): ListFilter {
  const { sort = 'id' } = filter
  return sort === 'id'
    ? past(filter, last.id)
    : { ...filter, from: { key: sortKeyOf(sort, last), id: last.id } }
}

/**
 * Every task matching the filter (at most `limit`), as a series of short queries of
 * `chunk` rows each, all in one snapshot. Each chunk waits for its share of the event loop
 * (`budget`), so that many streams share the server fairly with every other request.
 */
export async function* taskChunks(
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
    const tasks = await snapshot.readTasks(cursor, size)
    if (tasks.length > 0) yield tasks
    if (tasks.length < size) return
    remaining -= tasks.length
    cursor = pastTask(cursor, tasks.at(-1) as Task)
  }
}

/**
 * The last id of a page of `limit` tasks when more tasks follow it (so it needs a Link),
 * else undefined. When the ids between the first and last matching task are fewer than
 * `limit`, no task can follow: answered at once (`limit=2147483647`). Otherwise the ids
 * are walked a chunk at a time, each waiting for its share of the event loop.
 */
export async function endOfLargePage(
  snapshot: Snapshot,
  budget: TurnBudget,
  filter: ListFilter,
  limit: number,
): Promise<number | undefined> {
  const [first] = await snapshot.readIds(filter, 1)
  if (first === undefined) return undefined
  const [last] = await snapshot.readIds(
    { ...filter, order: filter.order === 'desc' ? 'asc' : 'desc' },
    1,
  )
  if (Math.abs((last as number) - first) + 1 <= limit) return undefined
  let cursor = filter
  let seen = 0
  for (;;) {
    await budget.take()
    const want = Math.min(WALK_CHUNK, limit + 1 - seen)
    const ids = await snapshot.readIds(cursor, want)
    if (seen + ids.length > limit) return ids[limit - seen - 1]
    seen += ids.length
    if (ids.length < want) return undefined
    cursor = past(cursor, ids.at(-1) as number)
  }
}

/**
 * The last task of a page of `limit` tasks in a sort other than id when more tasks follow
 * it, else undefined: the tasks are walked a chunk at a time, each waiting for its share of
 * the event loop.
 */
export async function endOfSortedPage(
  snapshot: Snapshot,
  budget: TurnBudget,
  filter: ListFilter,
  limit: number,
): Promise<Task | undefined> {
  let cursor = filter
  let seen = 0
  for (;;) {
    await budget.take()
    const want = Math.min(STREAM_CHUNK, limit + 1 - seen)
    const tasks = await snapshot.readTasks(cursor, want)
    if (seen + tasks.length > limit) return tasks[limit - seen - 1]
    seen += tasks.length
    if (tasks.length < want) return undefined
    cursor = pastTask(cursor, tasks.at(-1) as Task)
  }
}

/**
 * `chunks` with the first one read already: a database that cannot serve the listing
 * fails it before its 200 is sent, as a clean 503, rather than cutting it off after.
 */
export async function readingAhead(
  chunks: AsyncGenerator<Task[]>,
): Promise<AsyncGenerator<Task[]>> {
  const first = await chunks.next()
  return (async function* () {
    if (first.done) return
    yield first.value
    yield* chunks
  })()
}

/** `[`, the tasks separated by commas, `]`, written as the chunks arrive. */
export async function* jsonArray(chunks: AsyncIterable<Task[]>): AsyncGenerator<string> {
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
export async function* ndjsonLines(chunks: AsyncIterable<Task[]>): AsyncGenerator<string> {
  for await (const tasks of chunks) yield ndjson(tasks)
}

/** Tasks as NDJSON: one JSON Task per line. */
export function ndjson(tasks: readonly Task[]): string {
  let text = ''
  for (const task of tasks) text += `${JSON.stringify(task)}\n`
  return text
}

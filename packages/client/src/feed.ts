import type { RequestOptions } from './options.js'
import { WATCH_PATH } from './paths.js'
import { SseParser } from './sse.js'
import type { Transport } from './transport.js'
import type { TaskEvent, TaskStatus } from './types.js'

/** Where a connection to the change feed starts and which tasks it follows: its query string. */
export type FeedQuery = {
  /** Resume after this seq (sent as `after` and `Last-Event-ID`); undefined: new changes only. */
  after: number | undefined
  tag?: string | undefined
  status?: TaskStatus | undefined
  list?: number | undefined
  priority?: number | undefined
  dueFrom?: string | undefined
  dueTo?: string | undefined
  tz?: string | undefined
}

/** The `Tasklane-Seq` of a response: the newest change it reflects; undefined without one. */
export function seqOf(response: Response): number | undefined {
  const value = response.headers.get('tasklane-seq')
  return value === null ? undefined : Number(value)
}

/** What one chunk of the change feed brought. */
export interface FeedBatch {
  /** Its events, in seq order (none for a keep-alive). */
  readonly events: TaskEvent[]
  /**
   * Set when the server said it had sent everything up to this seq (`: seq N`): with these
   * events applied, a copy of the view is the view as it was at that seq.
   */
  readonly seq: number | undefined
}

/** The seq of the last `: seq N` comment of a chunk. */
function caughtUpSeq(comments: readonly string[]): number | undefined {
  let seq: number | undefined
  for (const comment of comments) {
    const match = /^seq (\d+)$/.exec(comment)
    if (match) seq = Number(match[1])
  }
  return seq
}

/**
 * One connection to the change feed (`GET /tasks/events`): each chunk as it arrives, as one
 * batch of events, empty for a keep-alive (so that a reader can tell a live connection from
 * a dead one), with the seq the server says the view has caught up to. A `reset` (the
 * caller gained or lost a list: `data: {"seq": N}`) is an event too, the stream's last;
 * events of other types are skipped. Ends when the stream ends; throws when it fails. Not
 * retried: a caller resumes from the last seq it applied.
 */
export function feedBatches(
  transport: Transport,
  call: RequestOptions,
  query: FeedQuery,
): AsyncGenerator<FeedBatch, void, undefined> {
  const { after } = query
  const url = transport.url(WATCH_PATH, query)
  return transport.stream(
    {
      method: 'GET',
      path: WATCH_PATH,
      query,
      accept: 'text/event-stream',
      headers: after === undefined ? {} : { 'last-event-id': String(after) },
      options: call,
    },
    async function* (chunks) {
      const parser = new SseParser()
      for await (const chunk of chunks) {
        const events = parser.push(chunk).flatMap(({ id, event, data }): TaskEvent[] => {
          if (event === 'reset') {
            return [
              { type: 'reset', seq: transport.record<{ seq: number }>(data, undefined, url).seq },
            ]
          }
          return event === 'created' || event === 'updated' || event === 'deleted'
            ? [
                {
                  type: event,
                  seq: Number(id),
                  task: transport.record(data, event === 'deleted' ? 'DeletedTask' : 'Task', url),
                } as TaskEvent,
              ]
            : []
        })
        yield { events, seq: caughtUpSeq(parser.takeComments()) }
      }
    },
  )
}

import { type IncomingMessage, request } from 'node:http'
import type { Task } from '@tasklane/contract'
import { within } from '@tasklane/testing/launch'
import type { Reachable } from './http.js'

/** One block of a Server-Sent Events stream: its fields, or a comment. */
export type Block =
  | { readonly kind: 'event'; readonly id: string; readonly event: string; readonly data: string }
  | { readonly kind: 'comment'; readonly text: string }

/** One event of the change feed, parsed. */
export interface FeedEvent {
  readonly type: 'created' | 'updated' | 'deleted'
  readonly seq: number
  /** The task after the change; for `deleted`, its id and version only. */
  readonly task: Task | { readonly id: number; readonly version: number }
}

/** An open GET /tasks/events, read as it arrives. */
export interface Subscription {
  readonly response: IncomingMessage
  /** Everything received so far, as text. */
  readonly text: () => string
  /** Every block received so far, in order. */
  readonly blocks: Block[]
  /** Every event received so far, in order, checked to be well formed. */
  readonly events: FeedEvent[]
  /** The tasks of the created and updated events received so far. */
  readonly tasks: Task[]
  /** The seq of the `reset` the stream ended with, once it has; undefined before. */
  readonly reset: () => number | undefined
  /** When each of `tasks` arrived (Date.now()). */
  readonly arrivals: number[]
  /** Resolves once `count` created or updated events have arrived (rejects after `timeoutMs`). */
  untilTasks(count: number, timeoutMs?: number): Promise<Task[]>
  /** Resolves once `count` events of any type have arrived (rejects after `timeoutMs`). */
  untilEvents(count: number, timeoutMs?: number): Promise<FeedEvent[]>
  /** Resolves once `count` comments have arrived. */
  untilComments(count: number, timeoutMs?: number): Promise<void>
  /**
   * Resolves once the feed has said it has read every change up to `seq` (a `: seq n`
   * comment with n ≥ seq), whether or not any of them was an event for this view.
   */
  untilSeq(seq: number, timeoutMs?: number): Promise<void>
  /** Settles when the connection has gone: 'end' if the response was complete, else 'aborted'. */
  readonly ended: Promise<'end' | 'aborted'>
  /** Stops reading (the socket's buffers fill, then the server's writes wait). */
  pause(): void
  resume(): void
  /** Drops the connection. */
  close(): void
}

/** Splits SSE text into blocks (RFC-style: blank line ends a block), keeping the rest. */
function parseBlocks(text: string): { blocks: Block[]; rest: string } {
  const blocks: Block[] = []
  const parts = text.split('\n\n')
  const rest = parts.pop() ?? ''
  for (const part of parts) {
    if (part.startsWith(':')) {
      blocks.push({ kind: 'comment', text: part })
      continue
    }
    const fields = new Map<string, string>()
    for (const line of part.split('\n')) {
      const colon = line.indexOf(': ')
      if (colon === -1) throw new Error(`not a "field: value" line: ${JSON.stringify(line)}`)
      const name = line.slice(0, colon)
      if (fields.has(name)) throw new Error(`field ${name} twice in one event: ${part}`)
      fields.set(name, line.slice(colon + 2))
    }
    // `reset` alone has no id: a client's Last-Event-ID must stay at the last real change.
    const reset = fields.get('event') === 'reset' && [...fields.keys()].join() === 'event,data'
    if (!reset && [...fields.keys()].join() !== 'id,event,data') {
      throw new Error(`an event must be exactly id, event, data: ${JSON.stringify(part)}`)
    }
    blocks.push({
      kind: 'event',
      id: fields.get('id') ?? '',
      event: fields.get('event') as string,
      data: fields.get('data') as string,
    })
  }
  return { blocks, rest }
}

/**
 * Opens GET `path` (default `/tasks/events`) with a raw HTTP request of its own (no
 * agent, so that a pause or a close affects this stream only) and resolves once the
 * response headers have arrived.
 */
export function subscribe(
  server: Reachable,
  path = '/tasks/events',
  headers: Record<string, string> = {},
): Promise<Subscription> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { agent: false, headers })
    req.on('error', reject)
    req.on('response', (response) => {
      let raw = ''
      let rest = ''
      const blocks: Block[] = []
      const events: FeedEvent[] = []
      const tasks: Task[] = []
      const arrivals: number[] = []
      let reset: number | undefined
      const waiters = new Set<() => void>()
      response.setEncoding('utf8')
      // Anything but a stream (an Error body) is kept as text only.
      const stream = response.headers['content-type'] === 'text/event-stream'
      response.on('data', (chunk: string) => {
        raw += chunk
        if (!stream) return
        const parsed = parseBlocks(rest + chunk)
        rest = parsed.rest
        for (const block of parsed.blocks) {
          blocks.push(block)
          if (block.kind !== 'event') continue
          if (block.event === 'reset') {
            const data = JSON.parse(block.data) as { seq: number }
            if (Object.keys(data).join() !== 'seq' || !Number.isSafeInteger(data.seq)) {
              throw new Error(`a reset carries its seq only: ${block.data}`)
            }
            reset = data.seq
            continue
          }
          const seq = Number(block.id)
          const type = block.event as FeedEvent['type']
          if (!Number.isSafeInteger(seq) || !['created', 'updated', 'deleted'].includes(type)) {
            throw new Error(`not an event of the change feed: ${JSON.stringify(block)}`)
          }
          const task = JSON.parse(block.data) as FeedEvent['task']
          if (type === 'deleted' && Object.keys(task).join() !== 'id,version') {
            throw new Error(`a deleted event carries more than id and version: ${block.data}`)
          }
          events.push({ type, seq, task })
          if (type === 'deleted') continue
          tasks.push(task as Task)
          arrivals.push(Date.now())
        }
        for (const waiter of waiters) waiter()
      })
      // 'close' comes either way, also to a paused response; `complete` tells which.
      const ended = new Promise<'end' | 'aborted'>((settle) => {
        response.once('error', () => {})
        response.once('close', () => settle(response.complete ? 'end' : 'aborted'))
      })
      const until = (done: () => boolean, timeoutMs: number, what: string) => {
        if (done()) return Promise.resolve()
        let waiter = () => {}
        const reached = new Promise<void>((settle) => {
          waiter = () => {
            if (done()) settle()
          }
          waiters.add(waiter)
        })
        return within(reached, timeoutMs, what).finally(() => waiters.delete(waiter))
      }
      resolve({
        response,
        text: () => raw,
        blocks,
        events,
        tasks,
        arrivals,
        reset: () => reset,
        async untilTasks(count, timeoutMs = 10_000) {
          await until(() => tasks.length >= count, timeoutMs, `${count} tasks on the feed`)
          return tasks.slice(0, count)
        },
        async untilEvents(count, timeoutMs = 10_000) {
          await until(() => events.length >= count, timeoutMs, `${count} events on the feed`)
          return events.slice(0, count)
        },
        untilComments: (count, timeoutMs = 10_000) =>
          until(
            () => blocks.filter((block) => block.kind === 'comment').length >= count,
            timeoutMs,
            `${count} comments on the feed`,
          ),
        untilSeq: (seq, timeoutMs = 10_000) =>
          until(
            () =>
              blocks.some(
                (block) =>
                  block.kind === 'comment' && Number(/^: seq (\d+)$/.exec(block.text)?.[1]) >= seq,
              ),
            timeoutMs,
            `a ": seq ${seq}" (or later) on the feed`,
          ),
        ended,
        pause: () => response.pause(),
        resume: () => response.resume(),
        close: () => req.destroy(),
      })
    })
    req.end()
  })
}

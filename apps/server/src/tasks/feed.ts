import { Readable } from 'node:stream'
import type { Task } from '@tasklane/contract'
import type { FastifyBaseLogger } from 'fastify'
import { ShuttingDownError, TooManySubscribersError } from '../errors.js'
import type { Storage } from '../storage/index.js'

/** Tasks a subscriber reads per query: the most it ever holds beyond its socket's buffers. */
const CHUNK = 100

/** A comment line: keeps proxies and clients from taking a quiet feed for a dead one. */
const KEEP_ALIVE = ': keep-alive\n\n'

/** Default interval of the keep-alive comments; decisions.md promises at least every 15 s. */
const KEEP_ALIVE_MS = 10_000

/** How long, once the feed closes, a stream may take to finish before its connection is cut. */
const CLOSE_GRACE_MS = 1_000

/** One task as a Server-Sent Event: its id (the resume point), the type, the Task JSON. */
function taskEvent(task: Task): string {
  return `id: ${task.id}\nevent: task\ndata: ${JSON.stringify(task)}\n\n`
}

/** A chunk of the feed as read from storage, with its events already written out. */
interface Chunk {
  readonly count: number
  readonly lastId: number
  readonly text: string
  /**
   * The newest id known committed when the query was sent: a short chunk holds every
   * matching task up to it. A subscriber that joins a read in flight must go by this, not
   * by what it knows itself, since the query may have started before the later commits.
   */
  readonly mark: number
}

/** Where a subscription starts and what it follows. */
export interface SubscribeOptions {
  /** Send tasks with a greater id; undefined: only tasks newer than the newest one now. */
  readonly after?: number | undefined
  readonly tag?: string | undefined
  /** The response the stream goes out on, to cut if it has not finished soon after close. */
  readonly connection?: Connection | undefined
}

/** What the feed needs of a response: to know when it is gone, and to cut it. */
export interface Connection {
  once(event: 'close', listener: () => void): unknown
  destroy(): unknown
}

/** The change feed of one server: its subscribers, their keep-alives and their limit. */
export interface Feed {
  /**
   * A stream of events: every matching task with an id above `after`, then each new one.
   * Rejects with TooManySubscribersError past the limit, before anything is sent.
   */
  subscribe(options: SubscribeOptions): Promise<Readable>
  /** Subscribers now. */
  readonly size: number
  /**
   * Ends every stream (cleanly: the client resumes with Last-Event-ID); later ones fail.
   * A connection whose reader has stopped reading cannot take the end: it is cut a moment
   * later rather than holding up the shutdown until every connection is.
   */
  close(): void
}

/**
 * GET /tasks/events. Each subscriber reads its own tasks from storage, from the last id it
 * sent, a chunk at a time and only when its socket has taken the previous one, so a slow
 * reader's backlog stays in the database rather than in this process. Between reads a
 * caught-up subscriber waits for storage to announce a higher committed id (this
 * instance's commits, or another's through the database). Ids are assigned in commit
 * order, so reading everything above the last id sent never skips or repeats a task.
 *
 * When many subscribers are at the same place (every caught-up one, after a create), they
 * would all run the same query: one read is made for all of them and its events shared.
 */
export function createFeed(
  storage: Storage,
  {
    maxSubscribers,
    keepAliveMs = KEEP_ALIVE_MS,
    log,
    onSubscribers,
  }: {
    maxSubscribers: number
    keepAliveMs?: number
    log: FastifyBaseLogger
    /** Told the number of subscribers each time it changes (metrics). */
    onSubscribers?: ((count: number) => void) | undefined
  },
): Feed {
  const subscribers = new Set<Subscription>()
  /** Slots taken by subscriptions still being set up, so the limit holds meanwhile. */
  let pending = 0
  /** Newest id storage has announced as committed since the first subscriber came. */
  let newest = 0
  let closed = false
  let stopListening: (() => void) | undefined
  let keepAliveTimer: NodeJS.Timeout | undefined
  const reads = new Map<string, Promise<Chunk>>()
  const connections = new Set<Connection>()

  /** The chunk after `after`; one query for every subscriber asking for the same one. */
  function read(after: number, tag: string | undefined): Promise<Chunk> {
    const key = tag === undefined ? `${after}` : `${after}:${tag}`
    let chunk = reads.get(key)
    if (chunk === undefined) {
      const mark = newest
      chunk = storage.listTasks({ after, tag }, CHUNK).then((tasks) => {
        let text = ''
        for (const task of tasks) text += taskEvent(task)
        return { count: tasks.length, lastId: tasks.at(-1)?.id ?? after, text, mark }
      })
      reads.set(key, chunk)
      const forget = () => reads.delete(key)
      chunk.then(forget, forget)
    }
    return chunk
  }

  /** One subscriber's stream; reads only when the socket wants more (`_read`). */
  class Subscription extends Readable {
    /** Every matching task up to here has been sent. */
    #cursor: number
    /** The last read came back full: more may follow at once, whatever storage announced. */
    #more = true
    #wanted = false
    #reading = false
    #ended = false

    constructor(
      after: number,
      readonly tag: string | undefined,
    ) {
      super()
      this.#cursor = after
      // Sends the headers now: the client knows the subscription stands.
      this.push(KEEP_ALIVE)
    }

    override _read(): void {
      this.#wanted = true
      void this.#pump()
    }

    override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
      this.#ended = true
      remove(this)
      callback(error)
    }

    /** Storage announced `id`: read on if this subscriber has not seen that far. */
    wake(id: number): void {
      if (id > this.#cursor) void this.#pump()
    }

    keepAlive(): void {
      // Only when nothing is waiting to go out: a stalled reader's buffer must not grow.
      if (!this.#ended && this.readableLength === 0) this.push(KEEP_ALIVE)
    }

    end(): void {
      if (this.#ended) return
      this.#ended = true
      this.push(null)
    }

    async #pump(): Promise<void> {
      if (this.#reading) return
      this.#reading = true
      try {
        while (this.#wanted && !this.#ended) {
          if (!this.#more && this.#cursor >= newest) return
          const chunk = await read(this.#cursor, this.tag)
          if (this.#ended) return
          this.#more = chunk.count === CHUNK
          this.#cursor = this.#more ? chunk.lastId : Math.max(chunk.lastId, chunk.mark)
          if (chunk.text !== '') this.#wanted = this.push(chunk.text)
        }
      } catch (error) {
        // The database went away mid-stream: end it, and the client resumes later.
        log.warn({ err: error }, 'change feed read failed; ending the stream')
        this.end()
      } finally {
        this.#reading = false
      }
    }
  }

  function onCommitted(id: number): void {
    newest = Math.max(newest, id)
    for (const subscriber of subscribers) subscriber.wake(id)
  }

  function add(subscription: Subscription): void {
    subscribers.add(subscription)
    onSubscribers?.(subscribers.size)
    stopListening ??= storage.onCommitted(onCommitted)
    keepAliveTimer ??= setInterval(() => {
      for (const subscriber of subscribers) subscriber.keepAlive()
    }, keepAliveMs).unref()
  }

  function remove(subscription: Subscription): void {
    if (!subscribers.delete(subscription)) return
    onSubscribers?.(subscribers.size)
    if (subscribers.size > 0) return
    // Nobody left to tell: no listener and no timer while the feed is idle.
    stopListening?.()
    stopListening = undefined
    clearInterval(keepAliveTimer)
    keepAliveTimer = undefined
  }

  return {
    async subscribe({ after, tag, connection }) {
      if (closed) throw new ShuttingDownError()
      if (subscribers.size + pending >= maxSubscribers) {
        throw new TooManySubscribersError(maxSubscribers)
      }
      pending++
      try {
        const start = after ?? (await storage.newestId())
        const subscription = new Subscription(start, tag)
        if (closed) subscription.end()
        else add(subscription)
        if (connection) {
          connections.add(connection)
          connection.once('close', () => connections.delete(connection))
        }
        return subscription
      } finally {
        pending--
      }
    },
    get size() {
      return subscribers.size
    },
    close() {
      closed = true
      for (const subscriber of subscribers) subscriber.end()
      setTimeout(() => {
        for (const connection of connections) connection.destroy()
      }, CLOSE_GRACE_MS).unref()
    },
  }
}

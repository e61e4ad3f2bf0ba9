import { Readable } from 'node:stream'
import { ShuttingDownError, TooManySubscribersError } from '../domain/domain-errors.js'
import type { Log } from '../domain/log.js'
import type { Change, Storage } from '../storage/open-storage.js'
import { type FeedFilter, viewEvents } from './feed-events.js'

/** Changes a subscriber reads per query: the most it ever holds beyond its socket's buffers. */
const CHUNK = 100

/** A comment line: keeps proxies and clients from taking a quiet feed for a dead one. */
const KEEP_ALIVE = ': keep-alive\n\n'

/** Default interval of the keep-alive comments; the API promises at least every 15 s. */
const KEEP_ALIVE_MS = 10_000

/** How long, once the feed closes, a stream may take to finish before its connection is cut. */
const CLOSE_GRACE_MS = 1_000

/** A chunk of the feed as read from storage, shared by the subscribers at the same place. */
interface Chunk {
  readonly changes: readonly Change[]
  readonly lastSeq: number
  /**
   * The newest seq of the snapshot the query read: a short chunk holds every change up to
   * it. A subscriber that joins a read in flight must go by this, not by what it knows
   * itself, since the query may have started before the later commits.
   */
  readonly newest: number
  /** The events for an unfiltered view, written once for every subscriber that has one. */
  unfiltered?: string
}

/** Where a subscription starts and what it follows. */
export interface SubscribeOptions extends FeedFilter {
  /** Send changes with a greater seq; undefined: only changes after the newest one now. */
  readonly after?: number | undefined
  /** The response the stream goes out on, to cut if it has not finished soon after close. */
  readonly connection?: Connection | undefined
}

/** What the feed needs of a response: to know when it is gone, and to cut it. */
export interface Connection {
  once(event: 'close', listener: () => void): unknown
  destroy(): unknown
}

/** What a subscription needs of its feed. */
interface Source {
  /** The chunk after `after`; one query for every subscriber asking for the same one. */
  read(after: number): Promise<Chunk>
  /** The newest seq announced as committed. */
  readonly newest: number
  remove(subscription: Subscription): void
  readonly log: Log
}

/** One subscriber's stream; reads only when the socket wants more (`_read`). */
class Subscription extends Readable {
  readonly #source: Source
  readonly #filter: FeedFilter
  /** Every change up to here has been sent (or skipped, not being in the view). */
  #cursor: number
  /** The newest seq the last read could see; at first, the newest when it subscribed. */
  #seen: number
  /** The last read came back full: more may follow at once, whatever storage announced. */
  #more = true
  /** The seq of the last `: seq` comment sent (see #pump); -1 before the first. */
  #marked = -1
  #wanted = false
  #reading = false
  #ended = false

  constructor(source: Source, after: number, newest: number, filter: FeedFilter) {
    super()
    this.#source = source
    this.#filter = filter
    this.#cursor = after
    this.#seen = newest
    // Sends the headers now: the client knows the subscription stands.
    this.push(KEEP_ALIVE)
  }

  override _read(): void {
    this.#wanted = true
    void this.#pump()
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#ended = true
    this.#source.remove(this)
    callback(error)
  }

  /** Storage announced `seq`: read on if this subscriber has not seen that far. */
  wake(seq: number): void {
    if (seq > this.#cursor) void this.#pump()
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

  #events(chunk: Chunk): string {
    const unfiltered = this.#filter.tag === undefined && this.#filter.status === undefined
    if (unfiltered && chunk.unfiltered !== undefined) return chunk.unfiltered
    const text = viewEvents(chunk.changes, this.#filter, {
      cursor: this.#cursor,
      seen: this.#seen,
    })
    if (unfiltered) chunk.unfiltered = text
    return text
  }

  async #pump(): Promise<void> {
    if (this.#reading) return
    this.#reading = true
    try {
      while (this.#wanted && !this.#ended) {
        if (!this.#more && this.#cursor >= this.#source.newest) return
        const chunk = await this.#source.read(this.#cursor)
        if (this.#ended) return
        const text = this.#events(chunk)
        this.#more = chunk.changes.length === CHUNK
        this.#cursor = this.#more ? chunk.lastSeq : Math.max(chunk.lastSeq, chunk.newest)
        this.#seen = Math.max(this.#seen, chunk.newest)
        // Caught up: the events sent so far give the view as it was at the cursor. Said as a
        // comment (which every SSE client ignores), so that one that applies the events to
        // a copy knows when its copy is exact, and at which seq.
        const marker = !this.#more && this.#cursor > this.#marked ? `: seq ${this.#cursor}\n\n` : ''
        if (marker !== '') this.#marked = this.#cursor
        if (text !== '' || marker !== '') this.#wanted = this.push(text + marker)
      }
    } catch (error) {
      // The database went away mid-stream: end it, and the client resumes later.
      this.#source.log.warn({ err: error }, 'change feed read failed; ending the stream')
      this.end()
    } finally {
      this.#reading = false
    }
  }
}

/** Options of the Feed. */
export interface FeedOptions {
  readonly maxSubscribers: number
  readonly keepAliveMs?: number | undefined
  readonly log: Log
  /** Told the number of subscribers each time it changes (metrics). */
  readonly onSubscribers?: ((count: number) => void) | undefined
}

/**
 * GET /tasks/events, the change feed of one server. Each subscriber reads the changes after
 * its cursor from storage (each task once, at its latest change: the compacted backlog), a
 * chunk at a time and only when its socket has taken the previous one, so a slow reader's
 * backlog stays in the database rather than in this process. Between reads a caught-up
 * subscriber waits for storage to announce a higher committed seq (this instance's commits,
 * or another's through the database). Seqs are assigned in commit order, so reading every
 * change above the cursor never skips a task's latest change.
 *
 * When many subscribers are at the same place (every caught-up one, after a change), they
 * would all run the same query: one read is made for all of them and its events shared.
 */
export class Feed implements Source {
  readonly log: Log
  readonly #storage: Storage
  readonly #options: FeedOptions
  readonly #subscribers = new Set<Subscription>()
  /** Slots taken by subscriptions still being set up, so the limit holds meanwhile. */
  #pending = 0
  /** Newest seq storage has announced as committed since the first subscriber came. */
  #newest = 0
  #closed = false
  #stopListening: (() => void) | undefined
  #keepAliveTimer: NodeJS.Timeout | undefined
  readonly #reads = new Map<number, Promise<Chunk>>()
  readonly #connections = new Set<Connection>()

  constructor(storage: Storage, options: FeedOptions) {
    this.#storage = storage
    this.#options = options
    this.log = options.log
  }

  get newest(): number {
    return this.#newest
  }

  /**
   * A stream of events: every change with a seq above `after` (compacted), then each new one.
   * Rejects with TooManySubscribersError past the limit, before anything is sent.
   */
  async subscribe({ after, tag, status, connection }: SubscribeOptions): Promise<Readable> {
    if (this.#closed) throw new ShuttingDownError()
    if (this.#subscribers.size + this.#pending >= this.#options.maxSubscribers) {
      throw new TooManySubscribersError(this.#options.maxSubscribers)
    }
    // Known before anything is awaited: a client gone during the first read is forgotten too.
    if (connection) {
      this.#connections.add(connection)
      connection.once('close', () => this.#connections.delete(connection))
    }
    this.#pending++
    try {
      const newest = await this.#storage.newestSeq()
      this.#newest = Math.max(this.#newest, newest)
      const subscription = new Subscription(this, after ?? newest, newest, { tag, status })
      if (this.#closed) subscription.end()
      else this.#add(subscription)
      return subscription
    } finally {
      this.#pending--
    }
  }

  /**
   * Ends every stream (cleanly: the client resumes with Last-Event-ID); later ones fail. A
   * connection whose reader has stopped reading cannot take the end: it is cut a moment
   * later rather than holding up the shutdown until every connection is.
   */
  close(): void {
    this.#closed = true
    for (const subscriber of this.#subscribers) subscriber.end()
    setTimeout(() => {
      for (const connection of this.#connections) connection.destroy()
    }, CLOSE_GRACE_MS).unref()
  }

  read(after: number): Promise<Chunk> {
    let chunk = this.#reads.get(after)
    if (chunk === undefined) {
      chunk = this.#storage.changesAfter(after, CHUNK).then(({ value: changes, seq }) => ({
        changes,
        lastSeq: changes.at(-1)?.seq ?? after,
        newest: seq,
      }))
      this.#reads.set(after, chunk)
      const forget = () => this.#reads.delete(after)
      chunk.then(forget, forget)
    }
    return chunk
  }

  remove(subscription: Subscription): void {
    if (!this.#subscribers.delete(subscription)) return
    this.#options.onSubscribers?.(this.#subscribers.size)
    if (this.#subscribers.size > 0) return
    // Nobody left to tell: no listener and no timer while the feed is idle.
    this.#stopListening?.()
    this.#stopListening = undefined
    clearInterval(this.#keepAliveTimer)
    this.#keepAliveTimer = undefined
  }

  #add(subscription: Subscription): void {
    this.#subscribers.add(subscription)
    this.#options.onSubscribers?.(this.#subscribers.size)
    this.#stopListening ??= this.#storage.onCommitted((seq) => this.#onCommitted(seq))
    this.#keepAliveTimer ??= setInterval(() => {
      for (const subscriber of this.#subscribers) subscriber.keepAlive()
    }, this.#options.keepAliveMs ?? KEEP_ALIVE_MS).unref()
  }

  #onCommitted(seq: number): void {
    this.#newest = Math.max(this.#newest, seq)
    for (const subscriber of this.#subscribers) subscriber.wake(seq)
  }
}

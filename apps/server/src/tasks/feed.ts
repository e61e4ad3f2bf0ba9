import type { Readable } from 'node:stream'
import type { Authenticator, Credential } from '../access/authenticator.js'
import type { RightsCache } from '../access/rights-cache.js'
import {
  ListNotFoundError,
  ShuttingDownError,
  TooManySubscribersError,
} from '../domain/domain-errors.js'
import type { Log } from '../domain/log.js'
import { isAdmin, readableLists } from '../domain/rights.js'
import type { Storage } from '../storage/open-storage.js'
import type { FeedFilter } from './feed-events.js'
import {
  CHUNK,
  type Chunk,
  type Source,
  Subscription,
  type ViewAccess,
} from './feed-subscription.js'
import { dueRangeOf, zoneOf } from './list-filter.js'
import type { TurnBudget } from './turn-budget.js'

/** Default interval of the keep-alive comments; the API promises at least every 15 s. */
const KEEP_ALIVE_MS = 10_000

/** How long, once the feed closes, a stream may take to finish before its connection is cut. */
const CLOSE_GRACE_MS = 1_000

/** The longest delay setTimeout takes; a credential expiring later is checked then. */
const MAX_TIMER_MS = 2_147_483_647

/** Where a subscription starts, who asks, and what it follows. */
export interface SubscribeOptions {
  /** Send changes with a greater seq; undefined: only changes after the newest one now. */
  readonly after?: number | undefined
  readonly tag?: string | undefined
  readonly status?: 'open' | 'done' | undefined
  readonly priority?: number | undefined
  /** Only tasks due in this range of days, counted in the zone `tz` (default UTC). */
  readonly dueFrom?: string | undefined
  readonly dueTo?: string | undefined
  readonly tz?: string | undefined
  /** Only tasks of this list, which the caller must be able to read. */
  readonly list?: number | undefined
  /** Who subscribes: its view is of the lists it reads, and its stream ends with its credential. */
  readonly credential: Credential
  /** The response the stream goes out on, to cut if it has not finished soon after close. */
  readonly connection?: Connection | undefined
}

/** What the feed needs of a response: to know when it is gone, and to cut it. */
export interface Connection {
  once(event: 'close', listener: () => void): unknown
  destroy(): unknown
}

/** Options of the Feed. */
export interface FeedOptions {
  readonly maxSubscribers: number
  readonly keepAliveMs?: number | undefined
  readonly log: Log
  /** Told the number of subscribers each time it changes (metrics). */
  readonly onSubscribers?: ((count: number) => void) | undefined
  /** Each caller's rights (the lists its view covers). */
  readonly rights: RightsCache
  /** Whether a subscriber's credential still works. */
  readonly authenticator: Authenticator
  /** The event loop's share for reads: a backlog read takes turns with every other request. */
  readonly budget: TurnBudget
}

/**
 * GET /tasks/events, the change feed of one server. Each subscriber reads the changes after
 * its cursor from storage (each task once, at its latest change: the compacted backlog), a
 * chunk at a time, taking its turn on the event loop, and only when its socket has taken
 * the previous one, so a slow reader's backlog stays in the database rather than in this
 * process. Between reads a caught-up subscriber waits for storage to announce a higher
 * committed seq (this instance's commits, or another's through the database). Seqs are
 * assigned in commit order, so reading every change above the cursor never skips a task's
 * latest change.
 *
 * A subscriber sees the lists it reads. When its rights change (it gains or loses a list),
 * its stream ends with `event: reset` at the seq of that change, after every event before
 * it and none after: the client lists again. When its credential is revoked or expires,
 * its stream ends.
 *
 * When many subscribers are at the same place (every caught-up one, after a change), they
 * would all run the same query: one read is made for all of them and its events shared.
 */
export class Feed implements Source {
  readonly log: Log
  readonly #storage: Storage
  readonly #options: FeedOptions
  readonly #subscribers = new Set<Subscription>()
  readonly #credentials = new WeakMap<Subscription, Credential>()
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
   * A stream of events: every change of the caller's view with a seq above `after`
   * (compacted), then each new one. Rejects before anything is sent with
   * TooManySubscribersError past the limit, ListNotFoundError for a list it cannot read.
   */
  async subscribe(options: SubscribeOptions): Promise<Readable> {
    if (this.#closed) throw new ShuttingDownError()
    if (this.#subscribers.size + this.#pending >= this.#options.maxSubscribers) {
      throw new TooManySubscribersError(this.#options.maxSubscribers)
    }
    // Known before anything is awaited: a client gone during the first read is forgotten too.
    const { connection } = options
    if (connection) {
      this.#connections.add(connection)
      connection.once('close', () => this.#connections.delete(connection))
    }
    this.#pending++
    try {
      return await this.#start(options)
    } finally {
      this.#pending--
    }
  }

  async #start(options: SubscribeOptions): Promise<Readable> {
    const { after, tag, status, priority, list, credential } = options
    // An unknown zone is a 400 before anything else.
    const due = dueRangeOf(options.dueFrom, options.dueTo, zoneOf(options.tz))
    const { caller } = credential
    const rights = await this.#options.rights.rightsOf(caller)
    const readable = readableLists(rights)
    if (list !== undefined && readable !== 'all' && !readable.includes(list)) {
      throw new ListNotFoundError(list)
    }
    const sequence = await this.#storage.sequence()
    if (list !== undefined && readable === 'all' && !(await this.#listExists(list))) {
      throw new ListNotFoundError(list)
    }
    const { seq: newest } = sequence
    this.#newest = Math.max(this.#newest, newest)
    const filter: FeedFilter = {
      tag,
      status,
      priority,
      due,
      list,
      lists: readable === 'all' ? undefined : new Set(readable),
    }
    const principal = isAdmin(caller) ? undefined : caller.principal
    // An admin's view no change of rights alters: only its credential is checked again.
    const access: ViewAccess = {
      principal,
      accessSeq: principal === undefined ? sequence.accessSeq : rights.accessSeq,
    }
    const start = after ?? newest
    const subscription = new Subscription(this, { after: start, newest }, filter, access)
    this.#credentials.set(subscription, credential)
    // The client's copy (its listing, or the events it had) is from `start`: its rights
    // changed since, and this view cannot continue it.
    const changed =
      principal === undefined
        ? undefined
        : await this.#storage.access.firstAccessChange(principal, Math.min(start, access.accessSeq))
    if (this.#closed) subscription.end()
    else if (changed !== undefined) subscription.reset(changed)
    else this.#add(subscription, credential)
    return subscription
  }

  async #listExists(id: number): Promise<boolean> {
    return (await this.#storage.access.list(id)).value !== undefined
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
      chunk = this.#storage
        .changesAfter(after, CHUNK)
        .then(({ value: changes, seq, accessSeq }) => ({
          changes,
          lastSeq: changes.at(-1)?.seq ?? after,
          newest: seq,
          accessSeq,
        }))
      this.#reads.set(after, chunk)
      const forget = () => this.#reads.delete(after)
      chunk.then(forget, forget)
    }
    return chunk
  }

  turn(): Promise<void> {
    return this.#options.budget.take()
  }

  firstAccessChange(principal: string, after: number): Promise<number | undefined> {
    return this.#storage.access.firstAccessChange(principal, after)
  }

  async stillValid(subscription: Subscription): Promise<boolean> {
    const credential = this.#credentials.get(subscription)
    return credential === undefined || this.#options.authenticator.stillValid(credential)
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

  #add(subscription: Subscription, credential: Credential): void {
    this.#subscribers.add(subscription)
    this.#options.onSubscribers?.(this.#subscribers.size)
    this.#stopListening ??= this.#storage.onCommitted((seq) => this.#onCommitted(seq))
    this.#keepAliveTimer ??= setInterval(() => {
      for (const subscriber of this.#subscribers) subscriber.keepAlive()
    }, this.#options.keepAliveMs ?? KEEP_ALIVE_MS).unref()
    // An expiring credential ends its streams when it expires.
    if (credential.expiresAt !== undefined) {
      const wait = Math.max(0, Math.min(credential.expiresAt - Date.now(), MAX_TIMER_MS))
      const timer = setTimeout(() => subscription.end(), wait).unref()
      subscription.once('close', () => clearTimeout(timer))
    }
  }

  #onCommitted(seq: number): void {
    this.#newest = Math.max(this.#newest, seq)
    for (const subscriber of this.#subscribers) subscriber.wake(seq)
  }
}

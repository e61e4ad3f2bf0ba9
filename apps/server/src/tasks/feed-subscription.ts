import { Readable } from 'node:stream'
import type { Log } from '../domain/log.js'
import type { Change } from '../storage/open-storage.js'
import { type FeedFilter, unfiltered, viewEvents } from './feed-events.js'

/** Changes a subscriber reads per query: the most it ever holds beyond its socket's buffers. */
export const CHUNK = 100

/** A comment line: keeps proxies and clients from taking a quiet feed for a dead one. */
const KEEP_ALIVE = ': keep-alive\n\n'

/** A chunk of the feed as read from storage, shared by the subscribers at the same place. */
export interface Chunk {
  readonly changes: readonly Change[]
  readonly lastSeq: number
  /**
   * The newest seq of the snapshot the query read: a short chunk holds every change up to
   * it. A subscriber that joins a read in flight must go by this, not by what it knows
   * itself, since the query may have started before the later commits.
   */
  readonly newest: number
  /** The access seq of the same snapshot. */
  readonly accessSeq: number
  /** The events for an unfiltered view, written once for every subscriber that has one. */
  unfiltered?: string
}

/**
 * Whose rights a subscription's view follows (none for an admin's view, which no change of
 * rights alters): its principal, the access seq its view was made at, and its credential.
 */
export interface ViewAccess {
  readonly principal: string | undefined
  /** The access seq the view's lists were read at; changes of rights after it are checked. */
  accessSeq: number
}

/** What a subscription needs of its feed. */
export interface Source {
  /** The chunk after `after`; one query for every subscriber asking for the same one. */
  read(after: number): Promise<Chunk>
  /** Waits for this subscription's share of the event loop before a read. */
  turn(): Promise<void>
  /** The newest seq announced as committed. */
  readonly newest: number
  /** The first change of `principal`'s right to read a list after `after`, if any. */
  firstAccessChange(principal: string, after: number): Promise<number | undefined>
  /** Whether the subscription's credential still works (not revoked, not expired). */
  stillValid(subscription: Subscription): Promise<boolean>
  remove(subscription: Subscription): void
  readonly log: Log
}

/** The `reset` event: the subscriber's rights changed at `seq`; it lists again. */
const resetEvent = (seq: number) => `event: reset\ndata: {"seq":${seq}}\n\n`

/** One subscriber's stream; reads only when the socket wants more (`_read`). */
export class Subscription extends Readable {
  readonly #source: Source
  readonly #filter: FeedFilter
  readonly #access: ViewAccess
  /** Every change up to here has been sent (or skipped, not being in the view). */
  #cursor: number
  /** The newest seq the last read could see; at first, the newest when it subscribed. */
  #seen: number
  /** Where it subscribed, and the tasks made since that it holds (feed-events.ts). */
  readonly #after: number
  readonly #held = new Set<number>()
  /** The last read came back full: more may follow at once, whatever storage announced. */
  #more = true
  /** The seq of the last `: seq` comment sent (see #pump); -1 before the first. */
  #marked = -1
  #wanted = false
  #reading = false
  #ended = false

  constructor(
    source: Source,
    { after, newest }: { after: number; newest: number },
    filter: FeedFilter,
    access: ViewAccess,
  ) {
    super()
    this.#source = source
    this.#filter = filter
    this.#access = access
    this.#cursor = after
    this.#after = after
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

  /** Ends the stream cleanly (after what it has queued); the client may resume. */
  end(text = ''): void {
    if (this.#ended) return
    this.#ended = true
    if (text !== '') this.push(text)
    this.push(null)
  }

  /** Ends the stream with `reset`: its rights changed at `seq`, and the view with them. */
  reset(seq: number): void {
    this.end(resetEvent(seq))
  }

  #events(chunk: Chunk, changes: readonly Change[]): string {
    const shared = unfiltered(this.#filter) && changes === chunk.changes
    if (shared && chunk.unfiltered !== undefined) return chunk.unfiltered
    const text = viewEvents(changes, this.#filter, {
      cursor: this.#cursor,
      seen: this.#seen,
      after: this.#after,
      held: this.#held,
    })
    if (shared) chunk.unfiltered = text
    return text
  }

  /**
   * Where the subscriber's rights changed since its view was made, if they did: the seq of
   * the first change of its principal's lists; or that its credential no longer works.
   */
  async #rightsChanged(chunk: Chunk): Promise<number | 'revoked' | undefined> {
    if (chunk.accessSeq === this.#access.accessSeq) return undefined
    if (!(await this.#source.stillValid(this))) return 'revoked'
    const { principal } = this.#access
    const changed =
      principal === undefined
        ? undefined
        : await this.#source.firstAccessChange(principal, this.#access.accessSeq)
    // Someone else's rights changed: this view stands as it is, up to this access seq.
    if (changed === undefined) this.#access.accessSeq = chunk.accessSeq
    return changed
  }

  async #pump(): Promise<void> {
    if (this.#reading) return
    this.#reading = true
    try {
      while (this.#wanted && !this.#ended) {
        if (!this.#more && this.#cursor >= this.#source.newest) return
        await this.#source.turn()
        const chunk = await this.#source.read(this.#cursor)
        if (this.#ended) return
        const changed = await this.#rightsChanged(chunk)
        if (changed === 'revoked') return this.end()
        // No event of a list reaches the subscriber after it lost the list: the view
        // goes up to the change of rights, then the client lists again.
        const changes =
          changed === undefined ? chunk.changes : chunk.changes.filter((c) => c.seq < changed)
        const text = this.#events(chunk, changes)
        if (changed !== undefined) {
          this.end(text + resetEvent(changed))
          return
        }
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

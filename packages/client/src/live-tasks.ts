import { isApiError } from './errors/api-error.js'
import { type FeedQuery, feedBatches, seqOf } from './feed.js'
import { LivePage } from './live-page.js'
import type { PlanningFilter, RequestOptions, TaskFilter } from './options.js'
import { LIST_PATH } from './paths.js'
import { backoff, retryDelay } from './retry.js'
import type { TasklaneClient } from './tasklane-client.js'
import { Transport } from './transport.js'
import type { Task, TaskSort } from './types.js'
import { sleep } from './utils/sleep.js'

/**
 * Which listing a LiveTasks follows (`sort`, `order`, `limit` and the filters `list`,
 * `tag`, `status`, `priority`, `dueFrom`, `dueTo`, `tz`: as `listTasks` takes them; not
 * `q` nor `overdue`, which the feed cannot follow: a TypeError) and how: `signal` closes
 * it; `timeoutMs` (default 30 s) is the longest silence of the feed before its connection
 * is taken for dead; `retry` sets the backoff of reconnections (which never stop while it
 * is open) and the retries of its reads.
 */
export interface LiveTasksOptions
  extends TaskFilter,
    Omit<PlanningFilter, 'q' | 'overdue'>,
    RequestOptions {
  /** `id` (the default), `due` (undated last both ways), `priority`, `position` or `updated`; ties by id. */
  sort?: TaskSort
  /** At most this many tasks: the first page of the listing. Default: the whole listing. */
  limit?: number
}

/** Thrown by a read older than the page (an instance that lags behind another): read again later. */
const LAGGING = new Error('The listing is older than the live copy.')

/** Called after each change or batch of changes LiveTasks applies, and when `caughtUp` changes. */
export type LiveTasksListener = (live: LiveTasks) => void

/**
 * A live copy of one listing: it lists (`GET /tasks` with the query), then follows the
 * change feed from the listing's `Tasklane-Seq` with the same filter, reconnecting with
 * backoff and resuming (`Last-Event-ID`) by itself; it lists again when the server refuses
 * a resume, the connection keeps failing, or the feed sends a `reset` (its caller gained or
 * lost a list). The feed sends a task entering the view as a create and one leaving it as a
 * delete; a change that moves a task in the sort (a new due, priority, position or list,
 * or any change under `updated`) moves it on the page. Whenever it is `caughtUp`, `tasks`
 * equal what `GET /tasks` with the same query answers at `seq`; at no moment
 * do they hold a duplicate, a deleted task, a task outside the filter or order, or a
 * version older than one shown before (the feed sends each task's latest change, so a
 * version superseded meanwhile may be skipped). With a `limit`, a task leaving the page is replaced by reading the
 * page again. A 401 (the credential revoked or expired, a token function asked again
 * included) closes it, with the ApiError as `error`. Needs only `fetch` and streams:
 * browsers, Node, Bun, Deno.
 * @example
 * import { createClient } from '@tasklane/client'
 * import { LiveTasks } from '@tasklane/client/live'
 *
 * const client = createClient({ baseUrl: 'http://127.0.0.1:3000' })
 * const live = new LiveTasks(client, { status: 'open', order: 'desc', limit: 20 })
 * live.subscribe(() => console.log(live.seq, live.tasks.map((task) => task.name)))
 * // later: live.close()
 */
export class LiveTasks {
  readonly #transport: Transport
  readonly #options: LiveTasksOptions
  /** The view's filters: the listing's and the feed's alike. */
  readonly #view: Omit<FeedQuery, 'after'>
  readonly #page: LivePage
  readonly #listeners = new Set<LiveTasksListener>()
  readonly #stop = new AbortController()
  #caughtUp = false
  #error: unknown

  constructor(client: TasklaneClient, options: LiveTasksOptions = {}) {
    const { q, overdue } = options as PlanningFilter
    if (q !== undefined || overdue !== undefined) {
      throw new TypeError('liveTasks cannot follow q or overdue.')
    }
    this.#transport = new Transport(client.options)
    this.#options = options
    const { tag, status, list, priority, dueFrom, dueTo, tz } = options
    this.#view = { tag, status, list, priority, dueFrom, dueTo, tz }
    this.#page = new LivePage(options.order, options.limit, options.sort)
    const { signal } = options
    if (signal?.aborted) this.#stop.abort()
    signal?.addEventListener('abort', () => this.close(), { once: true })
    void this.#run()
  }

  /** The tasks of the listing now, in its order. Read them again after each change. */
  get tasks(): readonly Task[] {
    return this.#page.tasks
  }

  /** The seq the tasks reflect: every change up to it, none after it. 0 before the first listing. */
  get seq(): number {
    return this.#page.seq
  }

  /**
   * True while the feed is connected, the server has said it sent every change of the view
   * up to `seq` (a `: seq` comment), every event received is applied and, with a limit, the
   * page is full: then the tasks are what a listing answers at `seq`.
   */
  get caughtUp(): boolean {
    return this.#caughtUp
  }

  /** The latest failure while it reconnects (undefined once it works again), or what closed it. */
  get error(): unknown {
    return this.#error
  }

  /** True once closed: by `close()`, the signal, or an error no retry can mend (see `error`). */
  get closed(): boolean {
    return this.#stop.signal.aborted
  }

  /** Calls `listener` after each change; returns the function that unsubscribes it. */
  subscribe(listener: LiveTasksListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Stops following the feed and closes its connection; the tasks stay as they are. */
  close(): void {
    this.#stop.abort()
    this.#setCaughtUp(false)
  }

  #notify(): void {
    for (const listener of this.#listeners) {
      try {
        listener(this)
      } catch (error) {
        // A listener's bug is its own: reported, never a reason to stop following.
        queueMicrotask(() => {
          throw error
        })
      }
    }
  }

  #setCaughtUp(caughtUp: boolean): void {
    if (caughtUp !== this.#caughtUp) {
      this.#caughtUp = caughtUp
      this.#notify()
    }
  }

  /** Reads the listing and puts it in place of the page. */
  async #read(call: RequestOptions): Promise<void> {
    const { order, limit, sort } = this.#options
    const { data, response } = await this.#transport.send<Task[]>({
      method: 'GET',
      path: LIST_PATH,
      query: { ...this.#view, limit, order, sort },
      schema: 'Task[]',
      options: call,
    })
    const seq = seqOf(response)
    // Without it the feed cannot start where the listing ends (a CORS setup that hides
    // the header, say).
    if (seq === undefined) throw new Error('The listing has no Tasklane-Seq header.')
    // An older one (from an instance that lags) would take changes back.
    if (seq < this.#page.seq) throw LAGGING
    this.#page.reset(data, seq)
  }

  async #run(): Promise<void> {
    const signal = this.#stop.signal
    const call = { ...this.#options, signal }
    const settings = this.#transport.retrySettings(this.#options.retry)
    const forever = { ...settings, maxRetries: Number.POSITIVE_INFINITY }
    const page = this.#page
    let listed = false
    let failures = 0
    while (!signal.aborted) {
      let delay = settings.initialDelayMs * Math.random()
      try {
        if (!listed || page.short) {
          await this.#read(call)
          listed = true
          this.#notify()
        }
        const feed = feedBatches(this.#transport, call, { after: page.seq, ...this.#view })
        following: for await (const batch of feed) {
          // Anything received, a keep-alive included, shows that the connection works.
          failures = 0
          this.#error = undefined
          let changed = false
          for (const event of batch.events) {
            // The caller gained or lost a list: no event says which tasks it reads now, a
            // fresh listing does. Left as after a stream that ended, but to list again.
            if (event.type === 'reset') {
              listed = false
              break following
            }
            changed = page.apply(event) || changed
          }
          // The server says the events so far give the view at this seq: only then is the
          // copy exact (between two, a compacted backlog may be half applied).
          if (batch.seq !== undefined) page.reached(batch.seq)
          if (page.short) {
            this.#setCaughtUp(false)
            if (changed) this.#notify()
            // The feed waits meanwhile; the events the new page reflects are skipped.
            await this.#read(call)
            changed = true
          }
          if (changed) this.#notify()
          if (batch.seq !== undefined) this.#setCaughtUp(true)
          else if (batch.events.length > 0) this.#setCaughtUp(false)
        }
      } catch (error) {
        if (signal.aborted) break
        this.#error = error
        const mendable = retryDelay(error, {
          retries: failures,
          settings: forever,
          repeatable: true,
        })
        // A resume the server refuses (a 4xx) or a connection that keeps failing: list
        // again. A listing it refuses (a bad query, a list gone) is the end, and so is a
        // 401 (the token asked for again included): the credential no longer works.
        if (
          mendable === undefined &&
          error !== LAGGING &&
          !(listed && isApiError(error) && error.status !== 401)
        ) {
          this.close()
          this.#notify()
          return
        }
        if (mendable === undefined || failures >= 2) listed = false
        delay = mendable ?? backoff(failures, settings)
        failures++
      }
      this.#setCaughtUp(false)
      try {
        await sleep(delay, signal, () => undefined)
      } catch {}
    }
  }
}

/**
 * A live copy of one listing: `new LiveTasks(client, options)`.
 * @example
 * const live = liveTasks(client, { tag: 'docs' })
 */
export const liveTasks = (client: TasklaneClient, options?: LiveTasksOptions): LiveTasks =>
  new LiveTasks(client, options)

import type { TasklaneClient, TaskStatus } from '@tasklane/client'
import { LiveTasks } from '@tasklane/client/live'

/**
 * The view the page shows: which tasks, in which order (`newest`: newest first, a page at a
 * time; `manual`: the lists' manual order, whole), and the words searched for, if any.
 */
export interface Query {
  readonly list: number | undefined
  readonly tag: string | undefined
  readonly status: TaskStatus | undefined
  readonly order: 'newest' | 'manual'
  readonly q: string | undefined
}

/**
 * A live copy of `query`'s tasks: the newest `limit` of them; or, with no limit (the manual
 * order, a search), all of them, which the page puts in order.
 */
export interface Window {
  readonly live: LiveTasks
  readonly query: Query
  readonly limit: number | undefined
}

/**
 * The window the page shows, and the one being read to replace it (another filter, a deeper
 * page): the page keeps showing the current one, live, until the next one has listed, then
 * swaps them. Asking for another window while one is being read drops that one.
 */
export class LiveWindows {
  #current: Window | undefined
  #next: Window | undefined

  constructor(
    /** Called after each change of the window shown. */
    readonly changed: () => void,
  ) {}

  /** The window shown: undefined until the first one has listed. */
  get current(): Window | undefined {
    return this.#current
  }

  /** A window is being read (the page waits for it: the pager is disabled). */
  get loading(): boolean {
    return this.#next !== undefined || this.#current === undefined
  }

  /** The failure, if any, of the window being read or else of the one shown. */
  get error(): unknown {
    return (this.#next ?? this.#current)?.live.error
  }

  /**
   * Reads a window of `query` and `limit`; once it has listed (or failed for good, e.g. a
   * filter the server refuses), it replaces the one shown and `ready` is called.
   */
  open(client: TasklaneClient, query: Query, limit: number | undefined, ready: () => void): void {
    const dropped = this.#next
    this.#next = undefined
    dropped?.live.close()
    const { list, tag, status } = query
    const live = new LiveTasks(client, {
      list,
      tag,
      status,
      ...(limit === undefined ? {} : { order: 'desc' as const, limit }),
    })
    const window = { live, query, limit }
    this.#next = window
    live.subscribe(() => {
      if (this.#next === window) {
        const replaced = this.#current
        this.#current = window
        this.#next = undefined
        // Closing it notifies its listener, which by now ignores it.
        replaced?.live.close()
        ready()
      } else if (this.#current === window) {
        this.changed()
      }
    })
  }
}

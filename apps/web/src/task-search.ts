import type { Task } from '@tasklane/client'
import type { Query } from './live-window.js'
import type { PlanningApi } from './planning-api.js'

/**
 * The search box's answer (GET /tasks?q=…): the ids found for the view's words and filters,
 * in the server's order. The page shows those tasks from its live copy, so that a change or
 * delete of one shows at once; the search itself is not live (the feed takes no `q`).
 */
export class TaskSearch {
  /** The words and filters of the last search, and the ids found (undefined while asked). */
  #found: { readonly query: Query; readonly ids: readonly number[] | undefined } | undefined

  constructor(
    readonly planning: PlanningApi,
    /** Called once a search is answered: `error` when it failed (then nothing is found). */
    readonly answered: (error: unknown) => void,
  ) {}

  /** Searches `query`'s words within its list, tag and status; without words, stops searching. */
  run(query: Query): void {
    const { q, list, tag, status } = query
    this.#found = q === undefined ? undefined : { query, ids: undefined }
    if (q === undefined) return
    this.planning.search({ q, list, tag, status }).then(
      (tasks) => this.#answer(query, tasks, undefined),
      (error: unknown) => this.#answer(query, [], error),
    )
  }

  /** A search of `query` is still waiting for its answer. */
  pending(query: Query): boolean {
    return query.q !== undefined && (this.#found?.query !== query || this.#found.ids === undefined)
  }

  /** Of `tasks`, those found for `query`, in the server's order. */
  ordered(tasks: readonly Task[], query: Query): Task[] {
    const found = this.#found
    if (found?.query !== query || found.ids === undefined) return []
    const place = new Map(found.ids.map((id, index) => [id, index]))
    const at = (task: Task) => place.get(task.id) ?? 0
    return tasks.filter((task) => place.has(task.id)).sort((a, b) => at(a) - at(b))
  }

  #answer(query: Query, tasks: readonly Task[], error: unknown): void {
    // A later search (or none) replaced this one: its answer is dropped.
    if (this.#found?.query !== query) return
    this.#found = { query, ids: tasks.map((task) => task.id) }
    this.answered(error)
  }
}

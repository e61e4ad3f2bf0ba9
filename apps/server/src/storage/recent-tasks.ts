import type { Task } from '@tasklane/contract'
import type { Reads } from './queries.js'
import type { ListFilter } from './storage.js'

/** How many of the newest tasks are kept in memory. */
const WINDOW = 64

/** The tasks of `window` (ascending ids) that `filter` lists, at most `limit`, in its order. */
function select(window: readonly Task[], filter: ListFilter, limit: number): Task[] {
  const after = filter.after ?? 0
  const matches = (task: Task) =>
    task.id > after &&
    (filter.before === undefined || task.id < filter.before) &&
    (filter.tag === undefined || task.tag === filter.tag)
  const listed: Task[] = []
  if (filter.order === 'desc') {
    for (let i = window.length - 1; i >= 0 && listed.length < limit; i--) {
      const task = window[i] as Task
      if (matches(task)) listed.push(task)
    }
  } else {
    for (const task of window) {
      if (listed.length === limit) break
      if (matches(task)) listed.push(task)
    }
  }
  return listed
}

/**
 * The newest tasks, kept in memory so that the page people look at most (the newest ones,
 * a last page no page cache can hold) is not read row by row on every request. The window
 * holds every task with an id above `start`; a listing whose cursor is at or above it is
 * answered from the window, after one query proves the window whole: the same newest id
 * in the database (when the window's ids are consecutive), else as many tasks above
 * `start` as in the window and the same newest id. Tasks are never edited or deleted, so
 * that means the same tasks, whoever wrote them (a tool writing the file behind the
 * server's back): on any difference the window is read again.
 */
export function recentTasks(reads: Reads, size = WINDOW) {
  let window: Task[] = []
  /** Every task with an id above this is in the window; none is known before the first read. */
  let start = Number.POSITIVE_INFINITY

  async function reload(): Promise<void> {
    const newest = await reads.listTasks({ order: 'desc' }, size)
    window = newest.reverse()
    start = newest.length < size ? 0 : (window[0] as Task).id - 1
  }

  /**
   * Whether the database holds no task above `start` that the window lacks. When the
   * window's ids are consecutive, no task can hide between them, so the newest id is
   * proof enough (one index seek); otherwise the tasks above `start` are counted.
   */
  async function whole(): Promise<boolean> {
    const newest = window.at(-1)?.id ?? 0
    if (newest - start === window.length) return (await reads.newestId()) === newest
    const counted = await reads.countAfter(start)
    return counted.count === window.length && counted.newest === newest
  }

  return {
    /** Up to `limit` tasks matching the filter, from the window when it covers the filter. */
    async listTasks(filter: ListFilter, limit: number): Promise<Task[]> {
      const after = filter.after ?? 0
      if (start === Number.POSITIVE_INFINITY) await reload()
      else if (after >= start && !(await whole())) await reload()
      return after >= start ? select(window, filter, limit) : reads.listTasks(filter, limit)
    },

    /** Tasks this process has just committed, ascending: they join the window. */
    committed(tasks: readonly Task[]): void {
      if (start === Number.POSITIVE_INFINITY) return
      for (const task of tasks) {
        if (task.id > (window.at(-1)?.id ?? start)) window.push(task)
      }
      if (window.length > size) {
        const dropped = window.splice(0, window.length - size)
        start = (dropped.at(-1) as Task).id
      }
    },
  }
}

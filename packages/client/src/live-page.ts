import type { Task, TaskChange } from './types.js'

/**
 * One listing (a tag/status view in id order, at most `limit` tasks) held in memory and
 * kept up to date by applying the change feed's events to it, pure: no I/O. Holds no more
 * than the listing, whatever the history.
 *
 * With a limit, the page knows the view only up to its `edge`: the last task it was read
 * with (or the last one left after a newer task pushed one out). A task entering the view
 * before the edge takes its place in order (pushing the last one out of a full page); one
 * beyond it is not known to be on the page and is left out. A task that leaves a page that
 * was full makes it `short`: only reading the page again can tell which task comes next.
 */
export class LivePage {
  /** The tasks, in the listing's order: a new array after each change, never changed in place. */
  tasks: readonly Task[] = []
  /** The seq this page reflects: every change up to it, none after it. */
  seq = 0
  /** No task of the view lies beyond the page: it was read shorter than its limit. */
  #complete = true
  /** Every task of the view up to this id (in the page's order) is on the page. */
  #edge = 0

  constructor(
    /** `asc`: oldest first; `desc`: newest first. */
    readonly order: 'asc' | 'desc' = 'asc',
    /** At most this many tasks; undefined: the whole view. */
    readonly limit?: number,
  ) {}

  /** True when a task left a page that had more after it: read the page again to fill it. */
  get short(): boolean {
    return !this.#complete && this.tasks.length < (this.limit as number)
  }

  /** Replaces the page with a listing read at `seq`. */
  reset(tasks: readonly Task[], seq: number): void {
    this.tasks = tasks
    this.seq = seq
    this.#complete = this.limit === undefined || tasks.length < this.limit
    this.#edge = tasks.at(-1)?.id ?? 0
  }

  /** The server has sent every change of the view up to `seq`: the page reflects it. */
  reached(seq: number): void {
    if (seq > this.seq) this.seq = seq
  }

  /**
   * Applies one event of the feed for this view; returns whether the tasks changed. An
   * event at or below the page's seq (already reflected) and a version older than the one
   * held are ignored, so that nothing ever goes back.
   */
  apply({ type, seq, task }: TaskChange): boolean {
    if (seq <= this.seq) return false
    this.seq = seq
    // A copy, so that a reader holding the previous array can tell that it changed.
    const tasks = [...this.tasks]
    const index = tasks.findIndex((held) => held.id === task.id)
    const held = tasks[index]
    // A delete carries the version it deleted: equal is not older.
    if (held && task.version < held.version) return false
    if (type === 'deleted') {
      if (!held) return false
      tasks.splice(index, 1)
    } else if (held) {
      tasks[index] = task
    } else {
      if (!this.#complete && this.#before(this.#edge, task.id)) return false
      this.#insert(tasks, task)
    }
    this.tasks = tasks
    return true
  }

  /** Puts a task not held in its place in order, pushing the last one out of a full page. */
  #insert(tasks: Task[], task: Task): void {
    const at = tasks.findIndex((other) => this.#before(task.id, other.id))
    tasks.splice(at < 0 ? tasks.length : at, 0, task)
    if (tasks.length > (this.limit ?? tasks.length)) {
      // The last one is pushed out: what lies beyond the new last one is unknown now.
      tasks.pop()
      this.#complete = false
      this.#edge = tasks.at(-1)?.id ?? 0
    }
  }

  /** Whether id `a` comes before id `b` in the page's order. */
  #before(a: number, b: number): boolean {
    return this.order === 'desc' ? a > b : a < b
  }
}

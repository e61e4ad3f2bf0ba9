import { taskOrder } from './live-order.js'
import type { Task, TaskChange, TaskSort } from './types.js'

/**
 * One listing (a view in the order of its sort, at most `limit` tasks) held in memory and
 * kept up to date by applying the change feed's events to it, pure: no I/O. Holds no more
 * than the listing, whatever the history.
 *
 * With a limit, the page knows the view only up to its `edge`: the last task it was read
 * with (or the last one left after a newer task pushed one out), as it was then. A task
 * entering the view, or changed (a new due, priority or position moves it), takes its
 * place in order when it comes before the edge (pushing the last one out of a full page);
 * beyond it, it is not known to be on the page and is left out. A task that leaves a page
 * that was full makes it `short`: only reading the page again can tell which task comes next.
 */
export class LivePage {
  /** The tasks, in the listing's order: a new array after each change, never changed in place. */
  tasks: readonly Task[] = []
  /** The seq this page reflects: every change up to it, none after it. */
  seq = 0
  /** No task of the view lies beyond the page: it was read shorter than its limit. */
  #complete = true
  /** Every task of the view up to this one (in the page's order) is on the page. */
  #edge: Task | undefined
  /** The listing's order: negative when `a` comes before `b`. */
  readonly #compare: (a: Task, b: Task) => number

  constructor(
    /** `asc` (the default) or `desc`. */
    order?: 'asc' | 'desc',
    /** At most this many tasks; undefined: the whole view. */
    readonly limit?: number,
    /** The listing's sort, as `GET /tasks` takes it; default: by id. */
    sort?: TaskSort,
  ) {
    this.#compare = taskOrder(sort, order)
  }

  /** True when a task left a page that had more after it: read the page again to fill it. */
  get short(): boolean {
    return !this.#complete && this.tasks.length < (this.limit as number)
  }

  /** Replaces the page with a listing read at `seq`. */
  reset(tasks: readonly Task[], seq: number): void {
    this.tasks = tasks
    this.seq = seq
    this.#complete = this.limit === undefined || tasks.length < this.limit
    this.#edge = tasks.at(-1)
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
    // A change may move it: taken out, then put back where it goes now.
    if (held) tasks.splice(index, 1)
    else if (type === 'deleted') return false
    if (type !== 'deleted' && !this.#beyond(task)) this.#insert(tasks, task)
    this.tasks = tasks
    return true
  }

  /** Whether `task` may lie beyond the page: after its edge when the view goes on past it. */
  #beyond(task: Task): boolean {
    return !this.#complete && !(this.#edge && this.#compare(task, this.#edge) <= 0)
  }

  /** Puts a task not held in its place in order, pushing the last one out of a full page. */
  #insert(tasks: Task[], task: Task): void {
    const at = tasks.findIndex((other) => this.#compare(task, other) < 0)
    tasks.splice(at < 0 ? tasks.length : at, 0, task)
    if (tasks.length > (this.limit ?? tasks.length)) {
      // The last one is pushed out: what lies beyond the new last one is unknown now.
      tasks.pop()
      this.#complete = false
      this.#edge = tasks.at(-1)
    }
  }
}

import type { Task } from '@tasklane/contract'
import type { FeedEvent } from './events.js'

/**
 * A copy of the tasks built as a client of the feed would build it: a listing, then each
 * event applied in order (created and updated alike upsert; a deleted of a task not held is
 * ignored). Checks what every client relies on: seqs only rise, and a task's version never
 * goes back.
 */
export class Replica {
  readonly tasks = new Map<number, Task>()
  #seq: number

  constructor(listed: readonly Task[], seq: number) {
    for (const task of listed) this.tasks.set(task.id, task)
    this.#seq = seq
  }

  get seq(): number {
    return this.#seq
  }

  apply(event: FeedEvent): void {
    if (!(event.seq > this.#seq)) throw new Error(`seq ${event.seq} after ${this.#seq}`)
    this.#seq = event.seq
    const held = this.tasks.get(event.task.id)
    if (held && event.task.version < held.version) {
      throw new Error(`task ${held.id} went from version ${held.version} to ${event.task.version}`)
    }
    if (event.type === 'deleted') this.tasks.delete(event.task.id)
    else this.tasks.set(event.task.id, event.task as Task)
  }

  /** The tasks in ascending id order, as GET /tasks lists them. */
  list(): Task[] {
    return [...this.tasks.values()].sort((a, b) => a.id - b.id)
  }
}

import type { Task } from '@tasklane/client'

/** A change this page is sending: the task as it will be, or its deletion. */
export type Intent = Task | 'deleting'

/**
 * This page's own writes, laid over the live copy until the change feed brings them (within
 * a second): the task a change was answered with, a task deleted, and the changes in flight.
 * So a row never goes back to a state older than what the server answered, and never shows a
 * task the server said is gone. An answered write is forgotten once the live copy holds that
 * version or a later one, or no longer holds the task.
 */
export class OwnWrites {
  /** Answered writes: the task as the server answered, or `gone` (deleted, or 404). */
  readonly #answered = new Map<number, Task | 'gone'>()
  readonly #inFlight = new Map<number, Intent>()

  /** A change or deletion of task `id` is being sent: its row shows `intent`, busy. */
  begin(id: number, intent: Intent): void {
    this.#inFlight.set(id, intent)
  }

  /** The change of task `id` was answered (or failed): its row shows the server's state again. */
  end(id: number): void {
    this.#inFlight.delete(id)
  }

  /** The row's change in flight, if any. */
  inFlight(id: number): Intent | undefined {
    return this.#inFlight.get(id)
  }

  /** The server answered with this task (a change, or the current task after a conflict). */
  answered(task: Task): void {
    const known = this.#answered.get(task.id)
    if (known === undefined || (known !== 'gone' && known.version < task.version))
      this.#answered.set(task.id, task)
  }

  /** The server deleted task `id`, or says it no longer exists: deletion is final. */
  gone(id: number): void {
    this.#answered.set(id, 'gone')
  }

  /**
   * The live copy's tasks with this page's writes laid over them: a task in flight as its
   * intent, an answered one as the server answered it (unless `matches` says it left the
   * view), a deleted one left out. Forgets the answered writes the live copy has caught up with.
   */
  apply(live: readonly Task[], matches: (task: Task) => boolean): Task[] {
    const held = new Map(live.map((task) => [task.id, task]))
    for (const [id, write] of this.#answered) {
      const current = held.get(id)
      if (current === undefined || (write !== 'gone' && current.version >= write.version))
        this.#answered.delete(id)
    }
    return live.flatMap((task) => {
      const intent = this.#inFlight.get(task.id)
      if (intent !== undefined) return [intent === 'deleting' ? task : intent]
      const write = this.#answered.get(task.id)
      if (write === 'gone') return []
      const shown = write ?? task
      return matches(shown) ? [shown] : []
    })
  }
}

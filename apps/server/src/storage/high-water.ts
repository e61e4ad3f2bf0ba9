/**
 * The newest id known to be committed, and who wants to hear when it rises. Ids are
 * assigned in commit order, so one number says "every task up to here is committed";
 * it only ever rises, whatever order the news arrives in or however often it repeats.
 */
export class HighWater {
  #value = 0
  readonly #listeners = new Set<(newestId: number) => void>()

  /** The highest id announced so far (0 before any). */
  get value(): number {
    return this.#value
  }

  /** How many listeners are subscribed. */
  get size(): number {
    return this.#listeners.size
  }

  /** Tasks up to `id` are committed: tells every listener, unless that was already known. */
  raise(id: number): void {
    if (!(id > this.#value)) return
    this.#value = id
    for (const listener of this.#listeners) listener(id)
  }

  /**
   * Calls `listener` on every rise from now on; returns the function that stops it. The
   * call happens as a commit is acknowledged, so a listener must be quick and never throw.
   */
  subscribe(listener: (newestId: number) => void): () => void {
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
    }
  }
}

/**
 * The newest seq known to be committed, and who wants to hear when it rises. Seqs are
 * assigned in commit order, so one number says "every change up to here is committed"; it
 * only ever rises, whatever order the news arrives in or however often it repeats.
 */
export class CommittedSeq {
  #value = 0
  readonly #listeners = new Set<(seq: number) => void>()

  /** The newest seq known to be committed (0 before any news). */
  get value(): number {
    return this.#value
  }

  /** Changes up to `seq` are committed: tells every listener, unless that was already known. */
  raise(seq: number): void {
    if (!(seq > this.#value)) return
    this.#value = seq
    for (const listener of this.#listeners) listener(seq)
  }

  /**
   * Calls `listener` on every rise from now on; returns the function that stops it. The
   * call happens as a commit is acknowledged, so a listener must be quick and never throw.
   */
  subscribe(listener: (seq: number) => void): () => void {
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
    }
  }
}

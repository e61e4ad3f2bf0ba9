import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * At most `perTurn` takers go on in one turn of the event loop; the others wait for a
 * later turn. Streams that each take before reading a chunk so share the loop with
 * everything else: however many download at once, one turn does a bounded amount of
 * their work, and a request that arrives meanwhile waits a few short turns, not one
 * long one.
 */
export class TurnBudget {
  #used = 0
  #resetting = false

  constructor(private readonly perTurn: number) {}

  /** Resolves once the caller may do one unit of work in the current turn. */
  async take(): Promise<void> {
    for (;;) {
      if (this.#used < this.perTurn) {
        this.#used++
        if (!this.#resetting) {
          this.#resetting = true
          setImmediate(() => {
            this.#used = 0
            this.#resetting = false
          })
        }
        return
      }
      await nextTurn()
    }
  }
}

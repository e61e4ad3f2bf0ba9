import { KeyInFlightError } from './domain-errors.js'

/**
 * The Idempotency-Keys (scoped to their principals) of the writes being made now, on every
 * route: one key space, so that a repeat while the first is still in progress gets 409,
 * whichever route either was sent to.
 */
export class KeysInFlight {
  readonly #keys = new Set<string>()

  /** Runs `write` holding `key` (none: nothing held); rejects with KeyInFlightError if held. */
  async holding<T>(key: string | undefined, write: () => Promise<T>): Promise<T> {
    if (key === undefined) return write()
    if (this.#keys.has(key)) throw new KeyInFlightError()
    this.#keys.add(key)
    try {
      return await write()
    } finally {
      this.#keys.delete(key)
    }
  }
}

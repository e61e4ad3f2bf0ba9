import { DatabaseUnavailableError } from '../domain/domain-errors.js'

/** A write that succeeded this recently (ms) vouches for the write path without a probe. */
const FRESH_MS = 1_000

/**
 * Whether writes commit, for readiness: known from the writes themselves (the last one
 * succeeded, or failed because the database is unavailable) and, when no write vouches
 * for the path recently or the last one failed, from a probe write. One probe at a time.
 */
export class WriteHealth {
  #failing = true
  #lastSuccess = Number.NEGATIVE_INFINITY
  #probing: Promise<boolean> | undefined

  constructor(private readonly probe: () => Promise<void>) {}

  /** A write committed. */
  succeeded(): void {
    this.#failing = false
    this.#lastSuccess = performance.now()
  }

  /** A write failed; only the database being unavailable says anything of the path. */
  failed(error: unknown): void {
    if (error instanceof DatabaseUnavailableError) this.#failing = true
  }

  /** True when writes commit now: a recent write says so, or else a probe write. */
  writable(): Promise<boolean> {
    if (!this.#failing && performance.now() - this.#lastSuccess < FRESH_MS) {
      return Promise.resolve(true)
    }
    this.#probing ??= this.probe().then(
      () => {
        this.succeeded()
        return true
      },
      () => {
        this.#failing = true
        return false
      },
    )
    const probing = this.#probing
    return probing.finally(() => {
      if (this.#probing === probing) this.#probing = undefined
    })
  }
}

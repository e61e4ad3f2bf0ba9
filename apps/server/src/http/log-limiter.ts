/**
 * At most one log line per cause per window, so that a fault every request meets (a full
 * disk, a database down) writes a line every few seconds, not one per request: the
 * first of a window is written, with how many were held back since the last one written.
 */
export class LogLimiter {
  readonly #last = new Map<string, { at: number; suppressed: number }>()

  constructor(
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The count of lines held back for `cause` since the last one if a line is due now, else undefined. */
  take(cause: string): number | undefined {
    const time = this.now()
    const entry = this.#last.get(cause)
    if (entry !== undefined && time - entry.at < this.windowMs) {
      entry.suppressed++
      return undefined
    }
    // Bounded: causes are few, but never let the map grow without limit.
    if (this.#last.size >= 100) this.#last.clear()
    this.#last.set(cause, { at: time, suppressed: 0 })
    return entry?.suppressed ?? 0
  }
}

/** The innermost cause of an error, as `code: message` (a driver's words, for the log only). */
export function rootCause(error: unknown): string {
  let inner = error
  while (inner instanceof Error && inner.cause !== undefined && inner.cause !== inner) {
    inner = inner.cause
  }
  if (!(inner instanceof Error)) return String(inner)
  const code = (inner as { code?: unknown }).code
  return typeof code === 'string' ? `${code}: ${inner.message}` : inner.message
}

/** When to try a failed delivery again: doubling from `baseMs` up to `maxMs`, with jitter. */
export interface Backoff {
  readonly baseMs: number
  readonly maxMs: number
}

/** The standard: 5 s, 10 s, 20 s … up to an hour. */
export const WEBHOOK_BACKOFF: Backoff = { baseMs: 5_000, maxMs: 60 * 60 * 1000 }

/**
 * The wait after the `attempts`-th failure in a row (1: the first), between 80% and 100%
 * of the doubled delay, so webhooks that failed together do not retry together.
 */
export function backoffDelay({ baseMs, maxMs }: Backoff, attempts: number, random = Math.random()) {
  const doubled = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 40))
  return Math.round(doubled * (0.8 + 0.2 * random))
}

import { ApiError } from './errors/api-error.js'
import { ConnectionError } from './errors/connection-error.js'
import { TimeoutError } from './errors/timeout-error.js'

/** How failed attempts are retried: exponential backoff with jitter, honouring `Retry-After`. */
export interface RetryOptions {
  /** Attempts after the first one; `0` turns retrying off. Default 2. */
  maxRetries?: number
  /** Delay before the first retry; it doubles for each further one, with jitter. Default 500 ms. */
  initialDelayMs?: number
  /** Longest delay between two attempts. Default 8000 ms. */
  maxDelayMs?: number
  /** Longest `Retry-After` the client waits for; a longer one ends the call at once. Default 60000 ms. */
  maxRetryAfterMs?: number
}

/** The retry settings in force when none are given. */
export const DEFAULT_RETRY: Required<RetryOptions> = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
}

/** Client-wide and per-call settings merged; `false` at either level (per call wins) is off. */
export function retrySettings(
  client: RetryOptions | false | undefined,
  call: RetryOptions | false | undefined,
): Required<RetryOptions> {
  const setting = call ?? client
  if (setting === false) return { ...DEFAULT_RETRY, maxRetries: 0 }
  return { ...DEFAULT_RETRY, ...(client || undefined), ...setting }
}

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** What `retryDelay` needs to know besides the error. */
export interface RetryContext {
  /** Retries made so far for this call (0 before the first retry). */
  retries: number
  /** The settings in force (see `retrySettings`). */
  settings: Required<RetryOptions>
  /** The request may run twice without harm: a GET, or a create with an Idempotency-Key. */
  repeatable: boolean
  /** It carries an Idempotency-Key, so its 409 ("the first attempt is still in flight") is worth waiting out. */
  idempotencyKey?: boolean
}

/**
 * How long to wait before the next attempt, or undefined when `error` must not be retried:
 * only ConnectionError, TimeoutError and the transient statuses (408, 429, 5xx but 501 and
 * 505; 409 with an Idempotency-Key) are. A usage error (TypeError) never is.
 */
export function retryDelay(
  error: unknown,
  { retries, settings, repeatable, idempotencyKey = false }: RetryContext,
): number | undefined {
  if (!repeatable || retries >= settings.maxRetries) return undefined
  if (error instanceof ApiError) {
    const { status } = error
    const transient =
      status === 408 ||
      status === 429 ||
      (status === 409 && idempotencyKey) ||
      (status >= 500 && status !== 501 && status !== 505)
    if (!transient) return undefined
    const after = retryAfterMs(error.response.headers.get('retry-after'))
    if (after !== undefined) return after <= settings.maxRetryAfterMs ? after : undefined
  } else if (!(error instanceof ConnectionError || error instanceof TimeoutError)) {
    return undefined
  }
  return backoff(retries, settings)
}

/**
 * The exponential backoff before retry number `retries + 1`, with jitter: it spreads the
 * retries of many clients that failed together (50–100% of the delay).
 */
export function backoff(retries: number, settings: Required<RetryOptions>): number {
  return (
    Math.min(settings.maxDelayMs, settings.initialDelayMs * 2 ** retries) *
    (0.5 + Math.random() / 2)
  )
}

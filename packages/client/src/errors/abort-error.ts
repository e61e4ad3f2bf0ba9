import { TasklaneError } from './tasklane-error.js'

/**
 * Thrown when the caller's `signal` aborts a call, also while it waits to retry; `cause` is
 * the signal's reason. Never retried. (`watch` ends without an error instead.)
 */
export class AbortError extends TasklaneError {
  override name = 'AbortError'
}

/** The AbortError of a call that `signal` aborted. */
export function abortError(method: string, url: string, signal: AbortSignal | undefined) {
  return new AbortError(`Request aborted: ${method} ${url}`, method, url, {
    cause: signal?.reason,
  })
}

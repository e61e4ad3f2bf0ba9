import { TasklaneError } from './tasklane-error.js'

/**
 * Thrown when the server could not be reached or its answer broke off: fetch failed with one
 * of the runtimes' network errors (refused, reset, DNS, offline, blocked by CORS; see
 * `isNetworkError`), or a response body was cut off or is not JSON. Retried when the request
 * is safe to repeat. Never thrown for a bad argument: that is a TypeError.
 */
export class ConnectionError extends TasklaneError {
  override name = 'ConnectionError'
}

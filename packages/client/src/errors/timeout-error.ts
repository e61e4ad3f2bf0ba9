import { TasklaneError } from './tasklane-error.js'

/**
 * Thrown when an attempt's whole response did not arrive within `timeoutMs`, or (for a
 * stream) nothing arrived for `timeoutMs`. Retried like a ConnectionError.
 */
export class TimeoutError extends TasklaneError {
  override name = 'TimeoutError'
}

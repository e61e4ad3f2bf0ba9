import { TasklaneError } from './tasklane-error.js'

/**
 * Thrown, only with the `validate` option, when a response body (or one streamed task)
 * does not match the contract. Never retried: the same server sends the same data.
 */
export class ValidationError extends TasklaneError {
  override name = 'ValidationError'

  constructor(
    message: string,
    method: string,
    url: string,
    /** Where in the body the first mismatch is, e.g. `[3].name`; empty for the body itself. */
    readonly path: string,
    /** The parsed response body that failed the check. */
    readonly body: unknown,
  ) {
    super(message, method, url)
  }
}

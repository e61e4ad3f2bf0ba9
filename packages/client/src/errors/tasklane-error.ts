const BRAND = Symbol.for('tasklane.error')

/**
 * Base class of every error the client throws about a request; a usage error (a header
 * value fetch cannot send, a bad argument) is a plain TypeError or RangeError instead.
 */
export class TasklaneError extends Error {
  /** Set on every tasklane error, so that checks work across realms and bundle copies. */
  readonly [BRAND] = true
  override name = 'TasklaneError'

  constructor(
    message: string,
    /** HTTP method of the request that failed. */
    readonly method: string,
    /** Full URL of the request that failed. */
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** True for any error thrown by this client, even one from another realm or bundle copy. */
export function isTasklaneError(error: unknown): error is TasklaneError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[BRAND] === true
  )
}

import type { ErrorBody } from './types.js'

const BRAND = Symbol.for('tasklane.error')

/** Base class of every error the client throws. */
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

/** The server answered with a non-2xx status; `code` and `message` come from its Error body. */
export class ApiError extends TasklaneError {
  override name = 'ApiError'
  /** The server's X-Request-Id for the failed request: quote it to find its logs and trace. */
  readonly requestId: string | undefined

  constructor(
    /** HTTP status of the response. */
    readonly status: number,
    /** `code` of the Error body (equals `status` on a tasklane server). */
    readonly code: number,
    message: string,
    method: string,
    url: string,
    /** The parsed response body (the Error object, or the raw text if it was not JSON). */
    readonly body: ErrorBody | string | undefined,
    /** The response, with its headers (`Retry-After`, `Allow`, ...). */
    readonly response: Response,
  ) {
    super(message, method, url)
    this.requestId = response.headers.get('x-request-id') ?? undefined
  }
}

/** The request never got a response: connection refused, reset, DNS failure, CORS, ... */
export class ConnectionError extends TasklaneError {
  override name = 'ConnectionError'
}

/** No response arrived within `timeoutMs`. */
export class TimeoutError extends TasklaneError {
  override name = 'TimeoutError'
}

/** The request was aborted through the caller's `signal`. */
export class AbortError extends TasklaneError {
  override name = 'AbortError'
}

/** A response did not match the contract (only with the `validate` option). */
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

/** True for any error thrown by this client, even one from another realm or bundle copy. */
export function isTasklaneError(error: unknown): error is TasklaneError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[BRAND] === true
  )
}

/** True when the server answered with a non-2xx status. */
export function isApiError(error: unknown): error is ApiError {
  return isTasklaneError(error) && (error as { name: string }).name === 'ApiError'
}

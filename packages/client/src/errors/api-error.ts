import type { ErrorBody } from '../types.js'
import { isTasklaneError, TasklaneError } from './tasklane-error.js'

/**
 * Thrown when the server answers with a non-2xx status; `code` and `message` come from its
 * Error body. An error body is read up to MAX_ERROR_BODY_BYTES (1 MiB); past that the body
 * is dropped unread (`body` undefined) and the message says so. Subclass it for a status
 * that carries more (a 412 and the current ETag, say).
 */
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
    /** The response, with its headers (`Retry-After`, `Allow`, ...); its body is consumed. */
    readonly response: Response,
  ) {
    super(message, method, url)
    this.requestId = response.headers.get('x-request-id') ?? undefined
  }
}

/** True when the server answered with a non-2xx status (an ApiError, or a subclass of it). */
export function isApiError(error: unknown): error is ApiError {
  return isTasklaneError(error) && typeof (error as { status?: unknown }).status === 'number'
}

import { randomUUID } from 'node:crypto'
import type { FastifyError, FastifyReply } from 'fastify'
import {
  BadRequestError,
  DatabaseUnavailableError,
  type DomainError,
  ForbiddenError,
  IdempotencyConflictError,
  KeyInFlightError,
  KeysUnavailableError,
  LastOwnerError,
  ListNotFoundError,
  MemberNotFoundError,
  OpenModeError,
  PreconditionFailedError,
  ShuttingDownError,
  TaskNotFoundError,
  TokenNotFoundError,
  TooManyStreamsError,
  TooManySubscribersError,
  UnauthenticatedError,
  WebhookNotFoundError,
  WriteQueueFullError,
} from '../domain/domain-errors.js'
import { HttpError } from './http-error.js'
import { validationMessage } from './validation-message.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The media types a route's body may have, when not only JSON: its 415 names them. */
    contentType?: string
  }
}

/** What the response says: status, one sentence, extra headers. */
export interface Described {
  status: number
  message: string
  headers?: Readonly<Record<string, string>>
}

const RETRY_SOON = { 'Retry-After': '1' }

/** Out of file descriptors (a flood of connections, say): no reason to fail for good. */
const OUT_OF_DESCRIPTORS = new Set(['EMFILE', 'ENFILE'])

/** SQLite refused a write because its file or directory is read-only (SQLITE_READONLY_*). */
const READ_ONLY = /^SQLITE_READONLY(_|$)/

/** The `code` of an error or of any error in its chain of causes that `test` accepts. */
function codeIn(error: unknown, test: (code: string) => boolean): boolean {
  for (let inner = error, depth = 0; inner instanceof Error && depth < 8; depth++) {
    const code = (inner as { code?: unknown }).code
    if (typeof code === 'string' && test(code)) return true
    inner = inner.cause
  }
  return false
}

/** Each domain error's status: the one place the domain meets HTTP. */
const DOMAIN_STATUSES: [new (...args: never[]) => DomainError, number, Record<string, string>?][] =
  [
    [TaskNotFoundError, 404],
    [ListNotFoundError, 404],
    [MemberNotFoundError, 404],
    [TokenNotFoundError, 404],
    [WebhookNotFoundError, 404],
    [BadRequestError, 400],
    [ForbiddenError, 403],
    [KeyInFlightError, 409],
    [LastOwnerError, 409],
    [OpenModeError, 409],
    [IdempotencyConflictError, 422],
    [DatabaseUnavailableError, 503, RETRY_SOON],
    [KeysUnavailableError, 503, RETRY_SOON],
    [WriteQueueFullError, 503, RETRY_SOON],
    [ShuttingDownError, 503, { ...RETRY_SOON, Connection: 'close' }],
    // A subscriber stays for long: a slot is unlikely to free up within a second.
    [TooManySubscribersError, 503, { 'Retry-After': '10' }],
    // A full list takes seconds to send.
    [TooManyStreamsError, 503, { 'Retry-After': '5' }],
  ]

const STATUS_MESSAGES: Record<number, string> = {
  400: 'The request is malformed.',
  401: 'Authentication is required.',
  403: 'Access is forbidden.',
  404: 'The resource was not found.',
  405: 'The method is not allowed.',
  406: 'The requested representation is not available.',
  408: 'The request took too long to arrive.',
  409: 'The request conflicts with one in progress.',
  412: 'A precondition of the request failed.',
  413: 'The request body is too large.',
  414: 'The request URL is too long.',
  415: 'The request body has an unsupported media type.',
  417: 'The expectation is not supported.',
  421: 'The request was sent to a host this server does not answer to.',
  422: 'The request cannot be processed.',
  429: 'Too many requests.',
  431: 'The request headers are too large.',
  500: 'Internal server error.',
  503: 'The service is unavailable.',
}

export function statusMessage(status: number): string {
  return (
    STATUS_MESSAGES[status] ?? (status >= 500 ? 'Internal server error.' : 'The request failed.')
  )
}

const UNSUPPORTED_TYPE = { status: 415, message: 'Content-Type must be application/json.' }

/** Fastify's own failures, by code. */
const FASTIFY_ERRORS: Record<string, Described> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: UNSUPPORTED_TYPE,
  FST_ERR_CTP_INVALID_TYPE: UNSUPPORTED_TYPE,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    message: 'Content-Length does not match the request body.',
  },
}

/** Any error, as the response that may be shown for it: never a stack, SQL or path. */
export function describe(
  error: FastifyError,
  request: Parameters<typeof validationMessage>[2],
): Described {
  if (error instanceof HttpError) {
    return { status: error.statusCode, message: error.message, headers: error.headers }
  }
  if (error instanceof UnauthenticatedError) {
    // RFC 6750 §3: a request without a credential is told the scheme; one whose credential
    // was refused is also told that it was invalid.
    const challenge = error.sent
      ? 'Bearer realm="tasklane", error="invalid_token"'
      : 'Bearer realm="tasklane"'
    return { status: 401, message: error.message, headers: { 'WWW-Authenticate': challenge } }
  }
  if (error instanceof PreconditionFailedError) {
    // The task's current ETag: the client reads the task again, or retries knowing it.
    return { status: 412, message: error.message, headers: { ETag: `"${error.version}"` } }
  }
  for (const [type, status, headers] of DOMAIN_STATUSES) {
    if (error instanceof type) return { status, message: error.message, headers }
  }
  if (codeIn(error, (code) => OUT_OF_DESCRIPTORS.has(code))) {
    return {
      status: 503,
      message: 'The server is too busy; retry the request shortly.',
      headers: RETRY_SOON,
    }
  }
  if (codeIn(error, (code) => READ_ONLY.test(code))) {
    return {
      status: 503,
      message: 'The database cannot be written to (it is read-only); retry the request later.',
      headers: { 'Retry-After': '10' },
    }
  }
  const issue = error.validation?.[0]
  if (issue) {
    return {
      status: 400,
      message: validationMessage(issue, error.validationContext ?? 'body', request),
    }
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      status: 413,
      message: `The request body is larger than ${request.routeOptions.bodyLimit} bytes.`,
    }
  }
  const known = error.code ? FASTIFY_ERRORS[error.code] : undefined
  if (known === UNSUPPORTED_TYPE) {
    // A route that takes other media types than JSON names them in its config.
    const accepted = request.routeOptions.config?.contentType
    if (accepted !== undefined) return { status: 415, message: `Content-Type must be ${accepted}.` }
  }
  if (known) return known
  const status = error.statusCode
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, message: statusMessage(status) }
  }
  return { status: 500, message: statusMessage(500) }
}

/**
 * A 415 of PATCH names the patch formats the resource takes (RFC 5789, 2.2): the media
 * types of its route's `contentType`.
 */
export function acceptPatch(request: Parameters<typeof describe>[1]): Record<string, string> {
  const accepted = request.routeOptions.config?.contentType
  if (request.method !== 'PATCH' || accepted === undefined) return {}
  return { 'Accept-Patch': (accepted.match(/[\w.+-]+\/[\w.+-]+/g) ?? []).join(', ') }
}

/** Sends `{ code, message }` with code = status: the only shape a failure takes. */
export function sendError(reply: FastifyReply, described: Described): FastifyReply {
  if (described.headers) reply.headers(described.headers)
  return reply
    .code(described.status)
    .type('application/json; charset=utf-8')
    .send({ code: described.status, message: described.message })
}

/**
 * The raw response Node writes for a request it cannot parse as HTTP, in the same shape.
 * Nothing of the request can be trusted, so its X-Request-Id is always a new one.
 */
export function clientErrorResponse(status: number): string {
  const body = JSON.stringify({ code: status, message: statusMessage(status) })
  return `HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`
}

import { randomUUID } from 'node:crypto'
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import {
  DatabaseUnavailableError,
  type DomainError,
  IdempotencyConflictError,
  KeyInFlightError,
  ShuttingDownError,
  TaskNotFoundError,
  TooManyStreamsError,
  TooManySubscribersError,
  WriteQueueFullError,
} from '../errors.js'
import { HttpError } from '../http/http-error.js'
import { LogLimiter, rootCause } from '../http/log-limiter.js'
import { pathOf } from '../http/raw-request.js'
import { validationMessage } from '../http/validation-message.js'

/** What the response says: status, one sentence, extra headers. */
export interface Described {
  status: number
  message: string
  headers?: Readonly<Record<string, string>>
}

const RETRY_SOON = { 'Retry-After': '1' }

/** Each domain error's status: the one place the domain meets HTTP. */
const DOMAIN_STATUSES: [new (...args: never[]) => DomainError, number, Record<string, string>?][] =
  [
    [TaskNotFoundError, 404],
    [KeyInFlightError, 409],
    [IdempotencyConflictError, 422],
    [DatabaseUnavailableError, 503, RETRY_SOON],
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
  413: 'The request body is too large.',
  414: 'The request URL is too long.',
  415: 'The request body has an unsupported media type.',
  422: 'The request cannot be processed.',
  429: 'Too many requests.',
  431: 'The request headers are too large.',
  500: 'Internal server error.',
  503: 'The service is unavailable.',
}

function statusMessage(status: number): string {
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
  for (const [type, status, headers] of DOMAIN_STATUSES) {
    if (error instanceof type) return { status, message: error.message, headers }
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
  if (known) return known
  const status = error.statusCode
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, message: statusMessage(status) }
  }
  return { status: 500, message: statusMessage(500) }
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
 * True when a route matched the path only by letting a parameter swallow it whole (`*`,
 * the CORS preflight's `OPTIONS *`) or by matching nothing (`/tasks/` for `/tasks/:id`).
 */
function matchedByAccident(params: Record<string, string> | undefined, path: string): boolean {
  if (params === undefined) return false
  if (Object.values(params).includes('')) return true
  const rest = params['*']
  if (rest === undefined) return false
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {}
  return [path, decoded].some((whole) => rest === whole || rest === whole.slice(1))
}

/** Methods a path answers, derived from the registered routes (for 405 and `Allow`). */
function allowedMethods(app: FastifyInstance, path: string): string[] {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
  return methods.filter((method) => {
    const route = app.findRoute({ method, url: path })
    return (
      route !== null && !matchedByAccident(route.params as Record<string, string> | undefined, path)
    )
  })
}

/**
 * The raw response Node writes for a request it cannot parse as HTTP, in the same shape.
 * Nothing of the request can be trusted, so its X-Request-Id is always a new one.
 */
export function clientErrorResponse(status: number): string {
  const body = JSON.stringify({ code: status, message: statusMessage(status) })
  return `HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`
}

/**
 * Every failure, from routes, plugins, parsing and unknown URLs, becomes `{ code, message }`:
 * 404 for an unknown path, 405 with `Allow` for a known path and another method.
 */
export default fp(
  async function errors(app: FastifyInstance) {
    const limiter = new LogLimiter()
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const described = describe(error, request)
      if (described.status === 503) {
        // Expected while a fault lasts, and met by every request then: one line per cause
        // every few seconds, without a stack.
        const cause = `${error.name}: ${rootCause(error)}`
        const suppressed = limiter.take(cause)
        if (suppressed !== undefined) request.log.warn({ cause, suppressed }, 'service unavailable')
      } else if (described.status >= 500) request.log.error({ err: error }, 'request failed')
      return sendError(reply, described)
    })

    app.setNotFoundHandler((request, reply) => {
      const path = pathOf(request.url)
      const allow = allowedMethods(app, path)
      if (allow.length > 0) {
        return sendError(reply, {
          status: 405,
          message: `Method ${request.method} is not allowed on ${path}; use ${allow.join(' or ')}.`,
          headers: { Allow: allow.join(', ') },
        })
      }
      return sendError(reply, {
        status: 404,
        message: `No route matches ${request.method} ${path}.`,
      })
    })
  },
  { name: 'errors' },
)

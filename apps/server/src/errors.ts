import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import secureJson from 'secure-json-parse'
import { isDatabaseUnavailable } from './db/unavailable.js'
import { pathOf } from './http.js'

/** A failure with an HTTP status and a message safe to show the caller. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message)
  }
}

/** What the response says: status, one sentence, extra headers. */
interface Described {
  status: number
  message: string
  headers?: Readonly<Record<string, string>>
}

interface ValidationIssue {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  message?: string
}

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

// A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

function describePatternMismatch(subject: string, context: string, value: unknown): string {
  if (context === 'headers') return `${subject} must be 1 to 255 visible ASCII characters.`
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return `${subject} must not contain the NUL character (U+0000).`
    if (LONE_SURROGATE.test(value)) return `${subject} must not contain an unpaired surrogate.`
    if (value.trim() === '' || !/\S/.test(value)) {
      return `${subject} must contain at least one non-whitespace character.`
    }
  }
  return `${subject} has an invalid format.`
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root
  for (const segment of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~')
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined
  }
  return value
}

const PLURAL = (n: unknown, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** Turns the first schema violation into one sentence naming the field or parameter. */
export function describeValidation(
  issue: ValidationIssue,
  context: string,
  request: FastifyRequest,
): string {
  const kinds: Record<string, string> = {
    body: 'Field',
    params: 'Path parameter',
    headers: 'Header',
    querystring: 'Query parameter',
  }
  const kind = kinds[context] ?? 'Parameter'
  const name = issue.instancePath.slice(1).replaceAll('/', '.')
  const subject =
    name === ''
      ? context === 'body'
        ? 'The request body'
        : 'The query string'
      : `${kind} "${name}"`
  const parts: Record<string, unknown> = {
    body: request.body,
    params: request.params,
    headers: request.headers,
    querystring: request.query,
  }
  const data = parts[context]
  const p = issue.params
  switch (issue.keyword) {
    case 'additionalProperties':
      return context === 'body'
        ? `Field "${p.additionalProperty}" is not allowed; a task has only "name" and an optional "tag".`
        : `Unknown ${kind.toLowerCase()} "${p.additionalProperty}".`
    case 'required':
      return `${kind} "${p.missingProperty}" is required.`
    case 'type':
      if (name === '' && context === 'body') return 'The request body must be a JSON object.'
      return `${subject} must be ${p.type === 'integer' ? 'an integer' : `a ${p.type}`}.`
    case 'minLength':
      return `${subject} must be at least ${PLURAL(p.limit, 'character')} long.`
    case 'maxLength':
      return `${subject} must be at most ${PLURAL(p.limit, 'character')} long.`
    case 'minimum':
      return `${subject} must be at least ${p.limit}.`
    case 'maximum':
      return `${subject} must be at most ${p.limit}.`
    case 'pattern':
      return describePatternMismatch(subject, context, valueAt(data, issue.instancePath))
    default:
      return `${subject} ${issue.message ?? 'is invalid'}.`
  }
}

const FASTIFY_ERRORS: Record<string, Described> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    message: 'Content-Type must be application/json.',
  },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, message: 'Content-Type must be application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    message: 'Content-Length does not match the request body.',
  },
}

function describe(error: FastifyError, request: FastifyRequest, bodyLimit: number): Described {
  if (error instanceof HttpError) {
    return { status: error.statusCode, message: error.message, headers: error.headers }
  }
  const issue = error.validation?.[0]
  if (issue) {
    return {
      status: 400,
      message: describeValidation(issue, error.validationContext ?? 'body', request),
    }
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 413, message: `The request body is larger than ${bodyLimit} bytes.` }
  }
  const known = error.code ? FASTIFY_ERRORS[error.code] : undefined
  if (known) return known
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      message: 'The database is not reachable; retry the request shortly.',
      headers: { 'Retry-After': '1' },
    }
  }
  const status = error.statusCode
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, message: statusMessage(status) }
  }
  return { status: 500, message: statusMessage(500) }
}

/**
 * The JSON body parser: like Fastify's, with a precise message for each way a body fails.
 * Keys that could poison prototypes (`__proto__`, `constructor.prototype`) are refused.
 */
export function parseJsonBody(
  _request: FastifyRequest,
  body: string | Buffer,
  done: (error: Error | null, value?: unknown) => void,
): void {
  if (body.length === 0) {
    done(new HttpError(400, 'The request body is empty; send a JSON object.'))
    return
  }
  let value: unknown
  try {
    // secure-json-parse would drop a leading byte order mark; JSON.parse, as before, does not.
    if (body.toString().charCodeAt(0) === 0xfeff) throw new SyntaxError('byte order mark')
    // One parse; secure-json-parse scans the result only when the text holds a suspect key.
    value = secureJson.parse(body, null, { protoAction: 'error', constructorAction: 'error' })
  } catch (error) {
    const poisoned = (error as Error).message === 'Object contains forbidden prototype property'
    done(
      new HttpError(
        400,
        poisoned
          ? 'The request body must not contain "__proto__" or "constructor.prototype" keys.'
          : 'The request body is not valid JSON.',
      ),
    )
    return
  }
  done(null, value)
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
 * Methods a path answers, derived from the registered routes (for 405 and `Allow`). A
 * catch-all route (`OPTIONS *`, the CORS preflight) matches every path, so it says nothing.
 */
function allowedMethods(app: FastifyInstance, path: string): string[] {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
  return methods.filter((method) => {
    const route = app.findRoute({ method, url: path })
    return route !== null && !isCatchAll(route.params as Record<string, string> | undefined, path)
  })
}

/** True when the route's wildcard swallowed the whole path (`*`, not `/docs/static/*`). */
function isCatchAll(params: Record<string, string> | undefined, path: string): boolean {
  const rest = params?.['*']
  if (rest === undefined) return false
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {}
  return [path, decoded].some((whole) => rest === whole || rest === whole.slice(1))
}

/** Every failure, from routes, plugins, parsing and unknown URLs, becomes `{ code, message }`. */
export function registerErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const described = describe(error, request, bodyLimit)
    if (described.status >= 500) request.log.error({ err: error }, 'request failed')
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
    return sendError(reply, { status: 404, message: `No route matches ${request.method} ${path}.` })
  })
}

/** The body Node writes for a request it cannot parse as HTTP, in the same shape. */
export function clientErrorResponse(status: number): string {
  const body = JSON.stringify({ code: status, message: statusMessage(status) })
  return `HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
}

import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { RequestEnds } from '../http/request-ends.js'

/** Request headers that carry credentials: never written to a log in clear. */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-access-token',
  'idempotency-key',
  'cookie',
]

/**
 * Where a request's credentials could appear in a log line (pino redact paths): the
 * headers this plugin logs at debug level, and any `req` a plugin logs whole.
 */
export const REDACTED_PATHS = SECRET_HEADERS.flatMap((name) => [
  `headers["${name}"]`,
  `req.headers["${name}"]`,
])

/** What a credential is logged as (pino's own word for what it redacts). */
const REDACTED = '[Redacted]'

/**
 * Names that say they carry a credential: query parameters (`token`, `access_token`,
 * `api_key`, `apikey`, `password`, `secret`, `signature`...) and headers beyond
 * SECRET_HEADERS (`X-Upstream-Token`). The API takes none in a query, but a client may
 * send its token that way all the same.
 */
const SECRET_NAME = /token|key|passw|secret|auth|signature/i

/** A name as the server reads it: each `%XX` as its byte, so `tok%65n` is `token`. */
const decodedName = (name: string) =>
  name.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  )

/** `url` with the value of each query parameter named like a credential masked. */
export function redactedUrl(url: string): string {
  const start = url.indexOf('?')
  // Most queries are passed on unsplit: no such word in them, and nothing percent-encoded.
  if (start === -1 || !(SECRET_NAME.test(url) || url.includes('%', start))) return url
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      if (equals === -1) return pair
      const name = pair.slice(0, equals)
      return SECRET_NAME.test(decodedName(name)) ? `${name}=***` : pair
    })
  return `${url.slice(0, start)}?${query.join('&')}`
}

/**
 * C1 controls (U+0080–U+009F: a Latin-1 byte of a header value, U+009B starts a terminal
 * escape sequence) and the JavaScript line terminators U+2028 and U+2029, which JSON
 * leaves as they are.
 */
const UNPRINTABLE = /[\u0080-\u009f\u2028\u2029]/g

/** `text` with each UNPRINTABLE character written as its `\uXXXX` escape. */
const escaped = (text: string) =>
  text.replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** The request headers as a log line shows them: credentials masked, controls escaped. */
function loggedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const logged: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    logged[name] =
      SECRET_HEADERS.includes(name) || SECRET_NAME.test(name)
        ? REDACTED
        : typeof value === 'string'
          ? escaped(value)
          : value.map(escaped)
  }
  return logged
}

/**
 * One log line per request, when its response has gone (Fastify's own two are off), or
 * with `"aborted": true` when its client left before it (`status`: the one it would have
 * had); its `reqId` is the request id, `client` the client's address (through a trusted
 * proxy, the one it reports). At debug level it carries the request headers, credentials
 * redacted.
 */
export default fp(
  async function requestLog(app: FastifyInstance) {
    RequestEnds.of(app).add((request, reply, aborted) => {
      const line = {
        method: request.method,
        url: redactedUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        client: request.ip,
        ...(aborted ? { aborted } : {}),
      }
      const level = request.log.level
      if (level === 'debug' || level === 'trace') {
        request.log.info({ ...line, headers: loggedHeaders(request.headers) }, 'request')
      } else request.log.info(line, 'request')
    })
  },
  { name: 'request-log' },
)

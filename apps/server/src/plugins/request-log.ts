import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/** Request headers that carry credentials: never written to a log in clear. */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
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

/**
 * Query parameters whose names say they carry a credential (`token`, `access_token`,
 * `api_key`, `apikey`, `password`, `secret`, `signature`...). The API takes none, but a
 * client may send its token that way all the same.
 */
const SECRET_PARAMETER = /^[^=]*(token|key|password|passwd|secret|auth|signature)[^=]*$/i

/** Whether any part of a query could be such a name: most queries are passed on unsplit. */
const SECRET_WORD = /token|key|passw|secret|auth|signature/i

/** `url` with the value of each query parameter named like a credential masked. */
export function redactedUrl(url: string): string {
  const start = url.indexOf('?')
  if (start === -1 || !SECRET_WORD.test(url)) return url
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      return equals !== -1 && SECRET_PARAMETER.test(pair.slice(0, equals))
        ? `${pair.slice(0, equals)}=***`
        : pair
    })
  return `${url.slice(0, start)}?${query.join('&')}`
}

/**
 * One log line per request, when its response has gone (Fastify's own two are off); its
 * `reqId` is the request id, `client` the client's address (through a trusted proxy, the
 * one it reports). At debug level it carries the request headers, credentials redacted.
 */
export default fp(
  async function requestLog(app: FastifyInstance) {
    app.addHook('onResponse', (request, reply, done) => {
      const line = {
        method: request.method,
        url: redactedUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        client: request.ip,
      }
      const level = request.log.level
      if (level === 'debug' || level === 'trace') {
        request.log.info({ ...line, headers: request.headers }, 'request')
      } else request.log.info(line, 'request')
      done()
    })
  },
  { name: 'request-log' },
)

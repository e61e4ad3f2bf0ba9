import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/**
 * Where a request's credentials could appear in a log line (pino redact paths): the
 * headers this plugin logs at debug level, and any `req` a plugin logs whole.
 */
export const REDACTED_PATHS = ['authorization', 'idempotency-key', 'cookie'].flatMap((name) => [
  `headers["${name}"]`,
  `req.headers["${name}"]`,
])

/**
 * One log line per request, when its response has gone (Fastify's own two are off); its
 * `reqId` is the request id. At debug level it carries the request headers, credentials
 * redacted.
 */
export default fp(
  async function requestLog(app: FastifyInstance) {
    app.addHook('onResponse', (request, reply, done) => {
      const line = {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      }
      if (request.log.level === 'debug' || request.log.level === 'trace') {
        request.log.info({ ...line, headers: request.headers }, 'request')
      } else request.log.info(line, 'request')
      done()
    })
  },
  { name: 'request-log' },
)

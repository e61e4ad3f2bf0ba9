import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/** The header a request id travels in, both ways. */
export const REQUEST_ID_HEADER = 'x-request-id'

/** 1–128 visible ASCII characters: what a caller's or a proxy's id must be to be kept. */
const KEEPABLE = /^[\x21-\x7e]{1,128}$/

/**
 * The request's id (Fastify's genReqId): the caller's X-Request-Id when it is 1–128
 * visible ASCII characters, else a new UUID. A repeated header arrives joined with ", ",
 * which is not keepable, so it is replaced too.
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER]
  return typeof given === 'string' && KEEPABLE.test(given) ? given : randomUUID()
}

/**
 * Sends the request id back on every response. Registered before every other plugin, so
 * that its hook runs first and the header is set whichever later hook answers.
 */
export default fp(
  async function requestIdPlugin(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id)
      done()
    })
  },
  { name: 'request-id' },
)

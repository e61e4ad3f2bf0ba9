import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { sendError } from './errors.js'
import { API_HEADERS } from './security-headers.js'

/** Origins browsers may call the API from, or `['*']`; empty: CORS is off. */
export interface CorsOptions {
  readonly origins: readonly string[]
}

/**
 * CORS for browsers on other origins, off unless configured. Registered first, so that
 * every response, errors and 503s included, carries its headers.
 */
export default fp(
  async function corsPlugin(app: FastifyInstance, { origins }: CorsOptions) {
    if (origins.length === 0) return
    // An OPTIONS without Origin or Access-Control-Request-Method is no preflight. @fastify/cors
    // refuses it in plain text, before the security headers are set: refused here first,
    // in the Error shape and with them.
    app.addHook('onRequest', (request, reply, done) => {
      if (request.method !== 'OPTIONS') return done()
      const missing = [
        request.headers.origin ? [] : 'an Origin',
        request.headers['access-control-request-method'] ? [] : 'an Access-Control-Request-Method',
      ].flat()
      if (missing.length === 0) return done()
      reply.headers(API_HEADERS)
      sendError(reply, {
        status: 400,
        message: `A CORS preflight (OPTIONS) must carry ${missing.join(' and ')} header.`,
      })
    })
    await app.register(cors, {
      origin: origins.includes('*') ? '*' : [...origins],
      methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
      // Headers a browser may only read when listed: pagination, retries, replays, the
      // request id that the client puts on its errors, the ETag it sends back in If-Match
      // and the seq a live listing follows the feed from.
      exposedHeaders: [
        'Link',
        'Location',
        'Retry-After',
        'Idempotent-Replayed',
        'X-Request-Id',
        'ETag',
        'Tasklane-Seq',
      ],
      maxAge: 600,
    })
  },
  { name: 'cors' },
)

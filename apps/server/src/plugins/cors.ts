import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

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

import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ShuttingDownError } from '../errors.js'

/**
 * Once the server starts closing, requests that still arrive on open keep-alive
 * connections get 503 with `Retry-After` and `Connection: close`, while those in flight
 * finish (main.ts owns the grace period).
 */
export default fp(
  async function draining(app: FastifyInstance) {
    let closing = false
    app.addHook('preClose', async () => {
      closing = true
    })
    app.addHook('onRequest', (_request, _reply, done) => {
      done(closing ? new ShuttingDownError() : undefined)
    })
  },
  { name: 'draining' },
)

import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ShuttingDownError } from '../errors.js'

/**
 * Once the server starts closing, requests that still arrive on open keep-alive
 * connections get 503 with `Retry-After` and `Connection: close`, while those in flight
 * finish (main.ts owns the grace period). Once the last of them has been answered, the
 * connections left idle are closed: kept alive, they would hold the close until the
 * grace period ends.
 */
export default fp(
  async function draining(app: FastifyInstance) {
    let closing = false
    let inFlight = 0
    const closeIdle = () => setImmediate(() => app.server.closeIdleConnections())
    app.addHook('preClose', async () => {
      closing = true
    })
    app.addHook('onRequest', (_request, reply, done) => {
      if (closing) return done(new ShuttingDownError())
      inFlight++
      reply.raw.once('close', () => {
        inFlight--
        if (closing && inFlight === 0) closeIdle()
      })
      done()
    })
  },
  { name: 'draining' },
)

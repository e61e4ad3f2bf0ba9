import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ShuttingDownError } from '../domain/domain-errors.js'

/** Requests of a connection begun and not yet answered, kept on its socket. */
const IN_FLIGHT = Symbol('tasklane.inFlight')
type CountedSocket = Socket & { [IN_FLIGHT]?: number }

/**
 * Once the server starts closing, requests that still arrive on open keep-alive
 * connections get 503 with `Retry-After` and `Connection: close`, while those in flight
 * finish (main.ts owns the grace period). Once the last of them has been answered, the
 * connections left idle are closed: kept alive, they would hold the close until the
 * grace period ends.
 *
 * Requests are counted as they begin and end (Fastify's onRequest and onResponse), and
 * per connection, so that a connection that goes with requests unanswered takes its
 * count with it: one listener a connection, none a request.
 */
export default fp(
  async function draining(app: FastifyInstance) {
    let closing = false
    let inFlight = 0
    const closeIdle = () => setImmediate(() => app.server.closeIdleConnections())
    const ended = (count: number) => {
      inFlight -= count
      if (closing && inFlight === 0) closeIdle()
    }
    app.server.on('connection', (socket: CountedSocket) => {
      socket.once('close', () => {
        const left = socket[IN_FLIGHT] ?? 0
        socket[IN_FLIGHT] = 0
        if (left > 0) ended(left)
      })
    })
    app.addHook('preClose', async () => {
      closing = true
    })
    app.addHook('onRequest', (request, _reply, done) => {
      const socket = request.raw.socket as CountedSocket
      socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 0) + 1
      inFlight++
      done(closing ? new ShuttingDownError() : undefined)
    })
    app.addHook('onResponse', (request, _reply, done) => {
      const socket = request.raw.socket as CountedSocket
      // Already counted out when its connection closed first.
      const count = socket[IN_FLIGHT] ?? 0
      if (count > 0) {
        socket[IN_FLIGHT] = count - 1
        ended(1)
      }
      done()
    })
  },
  { name: 'draining' },
)

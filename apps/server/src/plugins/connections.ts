import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { LogLimiter } from '../http/log-limiter.js'

/** Client connections open at once; past it, a new connection is closed as it is accepted. */
export interface ConnectionsOptions {
  readonly maxConnections: number
}

/**
 * The cap on client connections (MAX_CONNECTIONS), so that a flood of idle connections
 * meets the cap rather than the descriptor limit, and failures to accept a connection
 * (EMFILE, ENFILE: descriptors ran out after all) are logged and survived: once the flood
 * ends, the server accepts again. Either is logged once per cause every few seconds.
 */
export default fp(
  async function connections(app: FastifyInstance, { maxConnections }: ConnectionsOptions) {
    const server = app.server
    server.maxConnections = maxConnections
    const limiter = new LogLimiter()
    server.on('drop', () => {
      const suppressed = limiter.take('drop')
      if (suppressed !== undefined) {
        app.log.warn(
          { maxConnections, suppressed },
          'connection refused: MAX_CONNECTIONS connections are open',
        )
      }
    })
    // Node emits an accept failure as the server's `error`; with no listener, that ends
    // the process. Fastify listens only while `listen` runs.
    app.addHook('onListen', (done) => {
      server.on('error', (error: NodeJS.ErrnoException) => {
        const suppressed = limiter.take(`error ${error.code}`)
        if (suppressed !== undefined) {
          app.log.warn({ err: error, suppressed }, 'could not accept a connection')
        }
      })
      done()
    })
  },
  { name: 'connections' },
)

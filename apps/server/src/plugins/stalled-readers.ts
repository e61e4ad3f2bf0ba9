import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { LogLimiter } from '../http/log-limiter.js'

/** Longest a connection may keep its send buffer full (DRAIN_TIMEOUT_MS). */
export interface StalledReadersOptions {
  readonly drainTimeoutMs: number
}

/**
 * Closes a connection whose client has stopped reading: its send buffer has stayed full
 * (`writableNeedDrain`, not one `drain` since) for `drainTimeoutMs`. Whatever it held is
 * freed with it: a change-feed subscription, a streamed listing, a docs file. A client
 * that reads, however slowly, drains its buffer now and then and is never cut. A
 * response that ends keeps nothing but its socket, which keep-alive closes.
 */
export default fp(
  async function stalledReaders(app: FastifyInstance, { drainTimeoutMs }: StalledReadersOptions) {
    /** Each open connection, and since when its send buffer has been full (if it is). */
    const full = new Map<Socket, number | undefined>()
    const limiter = new LogLimiter()
    app.server.on('connection', (socket: Socket) => {
      full.set(socket, undefined)
      socket.on('drain', () => full.set(socket, undefined))
      socket.once('close', () => full.delete(socket))
    })
    // A sweep, not a timer per write: a stall is noticed within one period of its start.
    const period = Math.max(10, Math.min(1_000, Math.floor(drainTimeoutMs / 4)))
    const sweep = setInterval(() => {
      const now = Date.now()
      for (const [socket, since] of full) {
        if (!socket.writableNeedDrain) {
          if (since !== undefined) full.set(socket, undefined)
        } else if (since === undefined) full.set(socket, now)
        else if (now - since >= drainTimeoutMs) {
          const suppressed = limiter.take('stalled')
          if (suppressed !== undefined) {
            app.log.info(
              { remoteAddress: socket.remoteAddress, drainTimeoutMs, suppressed },
              'closed a connection whose client stopped reading',
            )
          }
          socket.destroy()
        }
      }
    }, period).unref()
    app.addHook('onClose', async () => clearInterval(sweep))
  },
  { name: 'stalled-readers' },
)

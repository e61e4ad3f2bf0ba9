import underPressure from '@fastify/under-pressure'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../http/http-error.js'

/** Event-loop delay in ms above which requests are shed with 503; 0 turns shedding off. */
export interface OverloadOptions {
  readonly maxEventLoopDelayMs: number
}

/** Sheds load when the event loop falls behind, rather than queueing without bound. */
export default fp(
  async function overload(app: FastifyInstance, { maxEventLoopDelayMs }: OverloadOptions) {
    if (maxEventLoopDelayMs === 0) return
    await app.register(underPressure, {
      maxEventLoopDelay: maxEventLoopDelayMs,
      pressureHandler: async () => {
        throw new HttpError(503, 'The server is overloaded; retry the request shortly.', {
          'Retry-After': '1',
        })
      },
    })
  },
  { name: 'overload' },
)

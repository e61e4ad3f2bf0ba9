import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../http/http-error.js'

/** Event-loop delay in ms above which requests are shed with 503; 0 turns shedding off. */
export interface OverloadOptions {
  readonly maxEventLoopDelayMs: number
}

/** How often the delay is sampled, and the histogram's resolution (ms). */
const SAMPLE_MS = 1_000
const RESOLUTION_MS = 10

/**
 * Sheds load when the event loop falls behind, rather than queueing without bound: the
 * mean delay of the last second, above the limit, answers every request 503.
 *
 * This replaces @fastify/under-pressure, whose timer called process.memoryUsage() every
 * second whatever it was asked to watch: at the descriptor limit that call throws EMFILE
 * (it reads /proc), uncaught, and any client could end the process by opening connections.
 * Nothing here opens a file.
 */
export default fp(
  async function overload(app: FastifyInstance, { maxEventLoopDelayMs }: OverloadOptions) {
    if (maxEventLoopDelayMs === 0) return
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
    let delayMs = 0
    let timer: NodeJS.Timeout | undefined
    // Sampled from the moment the app is ready: loading modules and opening the database
    // block the loop, and that is not overload.
    app.addHook('onReady', async () => {
      histogram.enable()
      timer = setInterval(() => {
        // The histogram measures the timer's own lateness; its resolution is not delay.
        const mean = histogram.mean / 1e6 - RESOLUTION_MS
        delayMs = Number.isNaN(mean) ? Number.POSITIVE_INFINITY : Math.max(0, mean)
        histogram.reset()
      }, SAMPLE_MS).unref()
    })
    app.addHook('onClose', async () => {
      clearInterval(timer)
      histogram.disable()
    })
    app.addHook('onRequest', (_request, _reply, done) => {
      done(
        delayMs > maxEventLoopDelayMs
          ? new HttpError(503, 'The server is overloaded; retry the request shortly.', {
              'Retry-After': '1',
            })
          : undefined,
      )
    })
  },
  { name: 'overload' },
)

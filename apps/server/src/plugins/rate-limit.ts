import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../http/http-error.js'
import { isPublic } from '../http/public-paths.js'

/** Requests a minute per client address; 0 turns rate limiting off. */
export interface RateLimitOptions {
  readonly perMinute: number
}

/** Past the limit: 429 with `Retry-After` and `x-ratelimit-*` headers; probes and docs are exempt. */
export default fp(
  async function rateLimitPlugin(app: FastifyInstance, { perMinute }: RateLimitOptions) {
    if (perMinute === 0) return
    await app.register(rateLimit, {
      max: perMinute,
      timeWindow: 60_000,
      allowList: (request) => isPublic(request),
      errorResponseBuilder: (_request, context) =>
        new HttpError(
          429,
          `Rate limit of ${context.max} requests a minute exceeded; retry in ${context.after}.`,
        ),
    })
  },
  { name: 'rate-limit' },
)

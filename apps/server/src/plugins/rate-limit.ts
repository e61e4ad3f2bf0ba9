import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../http/http-error.js'
import { isPublic } from '../http/public-paths.js'
import { sharedStore } from './rate-limit-redis.js'

/** Requests a minute per client address; 0 turns rate limiting off. */
export interface RateLimitOptions {
  readonly perMinute: number
  /** Redis that every instance counts in, for one limit across them; else each counts alone. */
  readonly redisUrl?: string | undefined
}

/** Past the limit: 429 with `Retry-After` and `x-ratelimit-*` headers; probes and docs are exempt. */
export default fp(
  async function rateLimitPlugin(app: FastifyInstance, { perMinute, redisUrl }: RateLimitOptions) {
    if (perMinute === 0) return
    const shared = redisUrl === undefined ? undefined : sharedStore(redisUrl, app.log)
    if (shared) {
      await shared.connected(2_000)
      app.addHook('onClose', () => shared.close())
    }
    await app.register(rateLimit, {
      max: perMinute,
      timeWindow: 60_000,
      allowList: (request) => isPublic(request),
      // Fail open: while the shared store is unreachable, requests are served uncounted.
      ...(shared && { store: shared.Store, skipOnError: true }),
      errorResponseBuilder: (_request, context) =>
        new HttpError(
          429,
          `Rate limit of ${context.max} requests a minute exceeded; retry in ${context.after}.`,
        ),
    })
  },
  { name: 'rate-limit' },
)

import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../http/http-error.js'
import { isPublic } from '../http/public-paths.js'
import { sharedStore } from './rate-limit-redis.js'

/** Requests a minute per principal (or client address); 0 turns rate limiting off. */
export interface RateLimitOptions {
  readonly perMinute: number
  /** Redis that every instance counts in, for one limit across them; else each counts alone. */
  readonly redisUrl?: string | undefined
}

/** A minute, the window of both limits. */
const WINDOW_MS = 60_000

/**
 * Whose requests count together: a principal's, whichever credential it sends (known once
 * the request is authenticated), or, in open mode and on public routes, a client address's.
 */
function keyOf(request: FastifyRequest): string {
  const credential = request.credential as FastifyRequest['credential'] | null
  const principal = credential?.caller.principal
  return principal === undefined || principal === 'local' ? `ip:${request.ip}` : `p:${principal}`
}

/**
 * Requests refused for their credential (401), counted per client address: past the limit,
 * the next ones get 429 before any credential is looked at, so that guessing costs as much
 * as asking.
 */
class FailedAuthentications {
  readonly #counts = new Map<string, number>()
  #window = 0

  constructor(readonly max: number) {}

  #now(): void {
    const window = Math.floor(Date.now() / WINDOW_MS)
    if (window !== this.#window) {
      this.#window = window
      this.#counts.clear()
    }
  }

  exceeded(ip: string): boolean {
    this.#now()
    return (this.#counts.get(ip) ?? 0) >= this.max
  }

  count(ip: string): void {
    this.#now()
    this.#counts.set(ip, (this.#counts.get(ip) ?? 0) + 1)
  }
}

/**
 * Past the limit: 429 with `Retry-After` and `x-ratelimit-*` headers; probes and docs are
 * exempt. Counted per principal once the request is authenticated (hence after the auth
 * plugin's check), per client address otherwise; refused credentials count per address.
 */
export default fp(
  async function rateLimitPlugin(app: FastifyInstance, { perMinute, redisUrl }: RateLimitOptions) {
    if (perMinute === 0) return
    const shared = redisUrl === undefined ? undefined : sharedStore(redisUrl, app.log)
    if (shared) {
      await shared.connected(2_000)
      app.addHook('onClose', () => shared.close())
    }
    const exceeded = (after: string) =>
      new HttpError(
        429,
        `Rate limit of ${perMinute} requests a minute exceeded; retry in ${after}.`,
      )
    const failures = new FailedAuthentications(perMinute)
    app.addHook('onRequest', async (request, reply) => {
      if (!isPublic(request) && failures.exceeded(request.ip)) {
        reply.header('Retry-After', '60')
        throw exceeded('1 minute')
      }
    })
    app.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode === 401) failures.count(request.ip)
    })
    await app.register(rateLimit, {
      max: perMinute,
      timeWindow: WINDOW_MS,
      // After the credential is known: a principal's limit, whichever token it uses.
      hook: 'preHandler',
      keyGenerator: keyOf,
      allowList: (request) => isPublic(request),
      // Fail open: while the shared store is unreachable, requests are served uncounted.
      ...(shared && { store: shared.Store, skipOnError: true }),
      errorResponseBuilder: (_request, context) => exceeded(context.after),
    })
  },
  { name: 'rate-limit' },
)

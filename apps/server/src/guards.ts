import { createHash, timingSafeEqual } from 'node:crypto'
import rateLimit from '@fastify/rate-limit'
import underPressure from '@fastify/under-pressure'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from './errors.js'
import { pathOf } from './http.js'

/** How the server protects itself and its callers. */
export interface GuardOptions {
  /** When set, every route but health and docs requires `Authorization: Bearer <token>`. */
  readonly apiToken?: string | undefined
  /** Requests per minute per client address; 0 turns rate limiting off. */
  readonly rateLimitPerMinute?: number
  /** Event-loop delay in ms above which requests are shed with 503; 0 turns it off. */
  readonly maxEventLoopDelayMs?: number
}

/** Routes anyone may call: probes, the API description and its page. */
function isPublic(request: FastifyRequest): boolean {
  const path = pathOf(request.url)
  return (
    request.method === 'OPTIONS' ||
    path.startsWith('/health/') ||
    path === '/openapi.json' ||
    path === '/docs' ||
    path.startsWith('/docs/')
  )
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Optional bearer token, compared in constant time (digests of equal length). */
function requireToken(app: FastifyInstance, token: string): void {
  const expected = digest(token)
  app.addHook('onRequest', async (request) => {
    if (isPublic(request)) return
    const header = request.headers.authorization ?? ''
    const match = /^Bearer +(\S+) *$/i.exec(header)
    if (!match || !timingSafeEqual(digest(match[1] as string), expected)) {
      throw new HttpError(
        401,
        header === ''
          ? 'The Authorization header is missing; send "Authorization: Bearer <token>".'
          : 'The bearer token in the Authorization header is not valid.',
        { 'WWW-Authenticate': 'Bearer realm="tasklane"' },
      )
    }
  })
}

const API_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
}

/**
 * Security headers for a JSON API: nothing is sniffed, framed, cached or run as a page.
 * The /docs page keeps the defaults it needs to render. Called first on every request.
 */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  if (request.url.startsWith('/docs')) reply.header('x-content-type-options', 'nosniff')
  else reply.headers(API_HEADERS)
}

/** Auth, overload shedding and rate limiting. */
export async function registerGuards(app: FastifyInstance, options: GuardOptions): Promise<void> {
  const { maxEventLoopDelayMs = 1000, rateLimitPerMinute = 0, apiToken } = options
  if (maxEventLoopDelayMs > 0) {
    // Shed load when the event loop falls behind, rather than queueing without bound.
    await app.register(underPressure, {
      maxEventLoopDelay: maxEventLoopDelayMs,
      pressureHandler: async () => {
        throw new HttpError(503, 'The server is overloaded; retry the request shortly.', {
          'Retry-After': '1',
        })
      },
    })
  }
  if (rateLimitPerMinute > 0) {
    await app.register(rateLimit, {
      max: rateLimitPerMinute,
      timeWindow: 60_000,
      allowList: (request) => isPublic(request),
      errorResponseBuilder: (_request, context) =>
        new HttpError(
          429,
          `Rate limit of ${context.max} requests a minute exceeded; retry in ${context.after}.`,
        ),
    })
  }
  if (apiToken) requireToken(app, apiToken)
}

import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify'
import { allowedHostsFor } from './http/allowed-hosts.js'
import { defaultMaxConnections } from './http/descriptor-limit.js'
import { requestLineTooLong } from './http/raw-request.js'
import auth from './plugins/auth.js'
import connections from './plugins/connections.js'
import cors from './plugins/cors.js'
import docs from './plugins/docs.js'
import draining from './plugins/draining.js'
import errors, { clientErrorResponse, sendError } from './plugins/errors.js'
import framing from './plugins/framing.js'
import health from './plugins/health.js'
import hostHeader from './plugins/host-header.js'
import jsonBody from './plugins/json-body.js'
import metrics, { type ServerMetrics } from './plugins/metrics.js'
import overload from './plugins/overload.js'
import pipelining from './plugins/pipelining.js'
import rateLimit from './plugins/rate-limit.js'
import requestIdPlugin, { REQUEST_ID_HEADER, requestId } from './plugins/request-id.js'
import requestLog, { REDACTED_PATHS } from './plugins/request-log.js'
import securityHeaders, { API_HEADERS } from './plugins/security-headers.js'
import stalledReaders from './plugins/stalled-readers.js'
import streamsPerClient from './plugins/streams-per-client.js'
import strictParams from './plugins/strict-params.js'
import webPage from './plugins/web-page.js'
import type { Settings } from './settings/parse.js'
import { defaultSettings } from './settings/schema.js'
import type { Storage } from './storage/index.js'
import { taskRoutes } from './tasks/routes.js'
import { defaultWebRoot } from './web/root.js'

/** Request bodies above this many bytes get 413. */
export const BODY_LIMIT = 64 * 1024

/** Longest path parameter (an id has at most 16 digits); a longer one gets 414. */
const MAX_PARAM_LENGTH = 100

/** Idle time before TCP keep-alive probes start: a peer that vanished frees its slot. */
const TCP_KEEPALIVE_DELAY_MS = 60_000

/** TRUST_PROXY as Fastify takes it: off, the nearest `hops` proxies, or the addresses to trust. */
function trustProxyOption(
  list: readonly string[],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (list.length === 0) return false
  const [first] = list
  if (list.length > 1 || !/^\d+$/.test(first as string)) return [...list]
  const hops = Number(first)
  return (_address, hop) => hop < hops
}

/**
 * The per-request features `buildApp` can leave out, each a plugin whose hooks run on
 * every request: the X-Request-Id header (and its UUID: Fastify's counter then names
 * requests), the Prometheus metrics (`/metrics` gone; the writer's and the feed's reports
 * go nowhere), the request log line, the security headers, the Host check, the overload
 * guard, and strict parameters (Fastify's own type coercion then converts query, path and
 * header integers, as in a bare Fastify app).
 */
export const ABLATABLE_FEATURES = [
  'pipelining',
  'requestId',
  'metrics',
  'requestLog',
  'securityHeaders',
  'hostHeader',
  'overload',
  'framing',
  'streamsPerClient',
  'strictParams',
] as const
export type AblatableFeature = (typeof ABLATABLE_FEATURES)[number]

/** What the server reports to metrics when there are none: nothing, at no cost. */
const NO_METRICS: ServerMetrics = {
  writer: { onCommit: () => {}, onQueueDepth: () => {} },
  feed: { onSubscribers: () => {} },
}

/** What buildApp needs: open storage, and any settings that differ from their defaults. */
export interface AppOptions {
  readonly storage: Storage
  readonly settings?: Partial<Settings>
  readonly logger?: FastifyServerOptions['logger']
  /** Slow clients: ms within which a whole request must arrive (default 30 s). */
  readonly requestTimeoutMs?: number
  /** Slow clients: ms within which a request's headers must arrive (default 10 s). */
  readonly headersTimeoutMs?: number
  /** Interval of the change feed's keep-alive comments (default 10 s; tests shorten it). */
  readonly keepAliveMs?: number
  /** Where the built web page is (index.html and assets/); default: beside the server's build. */
  readonly webRoot?: string
  /**
   * Features left out, for measuring what each costs; the bench's ablation uses it
   * (bench/src/ablation-server.ts). Never set by the server itself: a server without them
   * lacks protections and observability its documentation promises.
   */
  readonly without?: readonly AblatableFeature[]
}

/** Builds the whole application from its plugins; it never listens (main.ts does, tests may inject). */
export async function buildApp({
  storage,
  settings: given = {},
  logger = false,
  requestTimeoutMs = 30_000,
  headersTimeoutMs = 10_000,
  keepAliveMs,
  webRoot = defaultWebRoot(),
  without = [],
}: AppOptions): Promise<FastifyInstance> {
  // Defaults come from the settings schema, whoever builds the app.
  const settings = { ...defaultSettings(), ...given }
  const has = (feature: AblatableFeature) => !without.includes(feature)
  const app = Fastify({
    // Credentials never reach a log line, whoever configures the logger.
    logger: typeof logger === 'object' ? { ...logger, redact: [...REDACTED_PATHS] } : logger,
    // The request id is the caller's X-Request-Id when it is usable; it is the `reqId` of
    // every log line of the request.
    ...(has('requestId') ? { genReqId: requestId } : {}),
    requestIdHeader: false,
    // One log line a request, written by plugins/request-log.ts.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // plugins/draining.ts answers requests that arrive while closing, in the Error shape.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Slow clients: the whole request must arrive within 30 s, its headers within 10 s.
    // Node enforces both only when it checks its connections, every 30 s by default;
    // checking every second keeps a slowloris client to about the configured time.
    requestTimeout: requestTimeoutMs,
    // Whose X-Forwarded-* to believe: `request.ip`, `request.host` and `request.protocol`
    // (the rate limit, the per-client stream limit, the log, /openapi.json) follow it.
    trustProxy: trustProxyOption(settings.trustProxy),
    http: {
      keepAlive: true,
      keepAliveInitialDelay: TCP_KEEPALIVE_DELAY_MS,
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
      // Node answers a missing Host with an empty 400; plugins/host-header.ts answers in the Error shape.
      requireHostHeader: false,
    },
    clientErrorHandler: (error, socket) => {
      const code = (error as { code?: string }).code
      // Node counts the request line in its header limit: a long URL is a 414, not a 431.
      const overflow = code === 'HPE_HEADER_OVERFLOW'
      const status = overflow
        ? requestLineTooLong((error as unknown as { rawPacket?: Buffer }).rawPacket)
          ? 414
          : 431
        : code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : 400
      if (socket.writable) socket.end(clientErrorResponse(status))
      else socket.destroy(error)
    },
    // Failures the router meets before any route or hook runs: the same Error shape.
    frameworkErrors: (error, request, reply) => {
      reply.headers(API_HEADERS).header(REQUEST_ID_HEADER, request.id)
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return sendError(reply, {
          status: 414,
          message: `A segment of the URL path is longer than ${MAX_PARAM_LENGTH} characters.`,
        })
      }
      if (error.code === 'FST_ERR_BAD_URL') {
        return sendError(reply, {
          status: 400,
          message: 'The URL path is not valid percent-encoding.',
        })
      }
      return sendError(reply, { status: 500, message: 'Internal server error.' })
    },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    ajv: {
      customOptions: {
        // Never coerce or strip: `{"name": 123}` and `{"name":"a","id":5}` are 400s.
        coerceTypes: has('strictParams') ? false : 'array',
        removeAdditional: false,
        useDefaults: false,
        allErrors: false,
        formats: { int32: true, int64: true },
      },
    },
  })

  // Descriptors the storage holds: PostgreSQL's two pools (requests, streamed listings) and
  // the connection that listens for other instances' commits; SQLite's file, WAL and shared
  // memory for the reads, the writer thread and the snapshot connections it keeps (more
  // streamed listings at once open more, and answer 503 when no descriptor is left).
  const databaseConnections =
    storage.kind === 'postgres' ? 2 * storage.maxSnapshots + 1 : 3 * (2 + 4)
  await app.register(connections, {
    maxConnections: settings.maxConnections ?? defaultMaxConnections(databaseConnections),
  })
  await app.register(stalledReaders, { drainTimeoutMs: settings.drainTimeoutMs })
  // Order matters: a pipelined request waits its turn before anything runs for it; then the
  // request id and CORS, so that every response carries their headers; then the checks
  // every request passes, cheapest first; then what the routes need.
  if (has('pipelining')) await app.register(pipelining)
  if (has('requestId')) await app.register(requestIdPlugin)
  await app.register(cors, { origins: settings.corsOrigins })
  if (has('securityHeaders')) await app.register(securityHeaders)
  if (has('hostHeader')) {
    await app.register(hostHeader, {
      allowed: allowedHostsFor(settings.allowedHosts, settings.host),
    })
  }
  if (has('framing')) await app.register(framing)
  await app.register(draining)
  if (has('requestLog')) await app.register(requestLog)
  await app.register(errors)
  if (has('overload')) {
    await app.register(overload, { maxEventLoopDelayMs: settings.maxEventLoopDelayMs })
  }
  await app.register(rateLimit, {
    perMinute: settings.rateLimit,
    redisUrl: settings.rateLimitRedisUrl,
  })
  await app.register(auth, { token: settings.apiToken })
  if (has('streamsPerClient')) {
    await app.register(streamsPerClient, { maxPerClient: settings.maxStreamsPerClient })
  }
  if (has('strictParams')) await app.register(strictParams)
  await app.register(jsonBody)
  const features = { apiToken: settings.apiToken !== undefined, rateLimit: settings.rateLimit > 0 }
  await app.register(docs, features)
  await app.register(health, { storage, timeoutMs: settings.readyTimeoutMs })
  if (has('metrics')) await app.register(metrics)
  else app.decorate('metrics', NO_METRICS)
  await app.register(taskRoutes, {
    storage,
    groupCommit: settings.groupCommit,
    writerObserver: app.metrics.writer,
    maxSubscribers: settings.maxSubscribers,
    maxStreams: settings.maxStreams,
    keepAliveMs,
    onSubscribers: app.metrics.feed.onSubscribers,
    features,
  })
  await app.register(webPage, { root: webRoot })
  return app
}

import type { Server } from 'node:http'
import { isDue } from '@tasklane/contract'
import Fastify, {
  type FastifyHttpOptions,
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
} from 'fastify'
import { APP_PLUGINS, type AppPlugin } from './app-plugins.js'
import { clientErrorResponse, sendError } from './http/described-error.js'
import { requestLineTooLong } from './http/raw-request.js'
import type { ServerMetrics } from './plugins/metrics.js'
import { REQUEST_ID_HEADER } from './plugins/request-id.js'
import { REDACTED_PATHS } from './plugins/request-log.js'
import { API_HEADERS } from './plugins/security-headers.js'
import webPage from './plugins/web-page.js'
import { feedRoutes } from './routes/feed-routes.js'
import { historyRoutes } from './routes/history-routes.js'
import { listRoutes } from './routes/list-routes.js'
import { taskRoutes } from './routes/task-routes.js'
import { tokenRoutes } from './routes/token-routes.js'
import { webhookRoutes } from './routes/webhook-routes.js'
import { authenticatorFor, type ServiceOptions, Services } from './services.js'
import type { AppSettings } from './settings/parse.js'
import { defaultSettings } from './settings/schema.js'
import type { Storage } from './storage/open-storage.js'
import { defaultWebRoot } from './web/root.js'

/** Request bodies above this many bytes get 413. */
export const BODY_LIMIT = 64 * 1024

/**
 * Longest path parameter, percent-encoded (an id has at most 16 digits; a principal up to
 * 128 characters, each up to 3 once encoded); a longer one gets 414.
 */
const MAX_PARAM_LENGTH = 384

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

/** What buildApp needs: open storage, and any settings that differ from their defaults. */
export interface AppOptions {
  readonly storage: Storage
  readonly settings?: Partial<AppSettings>
  readonly logger?: FastifyServerOptions['logger']
  /** Slow clients: ms within which a whole request must arrive (default 30 s). */
  readonly requestTimeoutMs?: number
  /** Slow clients: ms within which a request's headers must arrive (default 10 s). */
  readonly headersTimeoutMs?: number
  /** Interval of the change feed's keep-alive comments (default 10 s; tests shorten it). */
  readonly keepAliveMs?: number
  /** The webhook deliverer's times and DNS resolution (tests shorten and map them). */
  readonly webhookDelivery?: ServiceOptions['webhookDelivery']
  /** Where the built web page is (index.html and assets/); default: beside the server's build. */
  readonly webRoot?: string
  /** The cross-cutting plugins, in order (default: all of them, APP_PLUGINS). */
  readonly plugins?: readonly AppPlugin[]
}

/** Fastify's own options, with what the plugins need of them. */
function fastifyOptions(
  settings: AppSettings,
  plugins: readonly AppPlugin[],
  { logger = false, requestTimeoutMs = 30_000, headersTimeoutMs = 10_000 }: AppOptions,
): FastifyHttpOptions<Server> {
  const base: FastifyHttpOptions<Server> = {
    // Credentials never reach a log line, whoever configures the logger.
    logger: typeof logger === 'object' ? { ...logger, redact: [...REDACTED_PATHS] } : logger,
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
        coerceTypes: 'array',
        removeAdditional: false,
        useDefaults: false,
        allErrors: false,
        // `due`: a day or a date-time with an offset, on a date that exists (the contract's).
        formats: { int32: true, int64: true, due: isDue },
      },
    },
  }
  for (const { fastifyOptions: own } of plugins) {
    if (own === undefined) continue
    const { ajv, ...rest } = own
    Object.assign(base, rest)
    if (ajv?.customOptions) Object.assign(base.ajv?.customOptions ?? {}, ajv.customOptions)
  }
  return base
}

/** What the services report to when the metrics plugin is left out: nothing, at no cost. */
const NO_METRICS: ServerMetrics = {
  writer: { onCommit: () => {}, onQueueDepth: () => {} },
  feed: { onSubscribers: () => {} },
  webhooks: { onDelivery: () => {} },
}

/**
 * Builds the whole application: Fastify with the cross-cutting plugins, the services, the
 * routes that map HTTP to them, and the web page. It never listens (main.ts does; tests
 * may inject).
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { storage, plugins = APP_PLUGINS, webRoot = defaultWebRoot() } = options
  // Defaults come from the settings schema, whoever builds the app.
  const settings: AppSettings = { ...defaultSettings(), ...options.settings }
  const authenticator = authenticatorFor(settings, storage)
  const app = Fastify(fastifyOptions(settings, plugins, options))
  // One key order everywhere, the contract's (storage builds every Task in it): the same
  // task is the same text in a listing, a single-task response, NDJSON and the feed.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))
  const features = { apiToken: authenticator.required, rateLimit: settings.rateLimit > 0 }
  const context = { settings, storage, features, authenticator }
  for (const part of plugins) await part.register(app, context)

  const reports = app.hasDecorator('metrics') ? app.metrics : NO_METRICS
  const services = new Services(authenticator, {
    settings,
    storage,
    log: app.log,
    observers: {
      writer: reports.writer,
      onSubscribers: reports.feed.onSubscribers,
      onWebhookDelivery: reports.webhooks.onDelivery,
    },
    keepAliveMs: options.keepAliveMs,
    webhookDelivery: options.webhookDelivery,
  })
  // Resolves to nothing: Fastify's onReady takes a value it is handed as an error.
  app.addHook('onReady', async () => void (await services.start()))
  // Before the server waits for its responses to finish: a feed never would by itself.
  app.addHook('preClose', async () => services.endStreams())
  app.addHook('onClose', async () => services.close())

  await app.register(taskRoutes, { writer: services.writer, reads: services.reads, features })
  await app.register(feedRoutes, { feed: services.feed, features })
  await app.register(historyRoutes, { history: services.history, features })
  await app.register(listRoutes, { lists: services.lists, features })
  await app.register(tokenRoutes, { tokens: services.tokens, rights: services.rights, features })
  await app.register(webhookRoutes, { webhooks: services.webhooks, features })
  await app.register(webPage, { root: webRoot })
  return app
}

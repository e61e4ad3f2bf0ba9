import type { ServerFeatures } from '@tasklane/contract'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import type { Authenticator } from './access/authenticator.js'
import { allowedHostsFor } from './http/allowed-hosts.js'
import auth from './plugins/auth.js'
import compression from './plugins/compression.js'
import connections from './plugins/connections.js'
import cors from './plugins/cors.js'
import docs from './plugins/docs.js'
import draining from './plugins/draining.js'
import errors from './plugins/errors.js'
import framing from './plugins/framing.js'
import health from './plugins/health.js'
import hostHeader from './plugins/host-header.js'
import jsonBody from './plugins/json-body.js'
import metrics from './plugins/metrics.js'
import overload from './plugins/overload.js'
import pipelining from './plugins/pipelining.js'
import rateLimit from './plugins/rate-limit.js'
import requestIdPlugin, { requestId } from './plugins/request-id.js'
import requestLog from './plugins/request-log.js'
import securityHeaders from './plugins/security-headers.js'
import stalledReaders from './plugins/stalled-readers.js'
import streamsPerClient from './plugins/streams-per-client.js'
import strictParams from './plugins/strict-params.js'
import { defaultMaxConnections } from './settings/descriptor-limit.js'
import type { AppSettings } from './settings/parse.js'
import type { Storage } from './storage/open-storage.js'

/** What a plugin of the app is registered with. */
export interface PluginContext {
  readonly settings: AppSettings
  readonly storage: Storage
  /** Which errors beyond the routes' own this server answers, for the OpenAPI document. */
  readonly features: ServerFeatures
  /** Who a request is (open mode: everyone the admin `local`). */
  readonly authenticator: Authenticator
}

/**
 * One cross-cutting plugin of the app: how it registers, and what it needs of Fastify's own
 * options, which are fixed before any plugin registers.
 */
export interface AppPlugin {
  readonly name: string
  readonly fastifyOptions?: Partial<FastifyServerOptions>
  register(app: FastifyInstance, context: PluginContext): PromiseLike<unknown>
}

const plugin = (
  name: string,
  register: AppPlugin['register'],
  fastifyOptions?: AppPlugin['fastifyOptions'],
): AppPlugin => ({ name, register, ...(fastifyOptions ? { fastifyOptions } : {}) })

/**
 * The app's plugins, in the order they register. Order matters: a pipelined request waits
 * its turn before anything runs for it; then the request id and CORS, so that every
 * response carries their headers; then the checks every request passes, cheapest first;
 * then what the routes need. Each is its own concern (one file under plugins/).
 */
export const APP_PLUGINS: readonly AppPlugin[] = [
  plugin('connections', (app, { settings, storage }) =>
    app.register(connections, {
      maxConnections: settings.maxConnections ?? defaultMaxConnections(storage.descriptors),
    }),
  ),
  plugin('stalledReaders', (app, { settings }) =>
    app.register(stalledReaders, { drainTimeoutMs: settings.drainTimeoutMs }),
  ),
  plugin('pipelining', (app) => app.register(pipelining)),
  // The request id is the caller's X-Request-Id when it is usable; it is the `reqId` of
  // every log line of the request (without this plugin, Fastify's counter names requests).
  plugin('requestId', (app) => app.register(requestIdPlugin), { genReqId: requestId }),
  plugin('cors', (app, { settings }) => app.register(cors, { origins: settings.corsOrigins })),
  plugin('securityHeaders', (app) => app.register(securityHeaders)),
  plugin('hostHeader', (app, { settings }) =>
    app.register(hostHeader, { allowed: allowedHostsFor(settings.allowedHosts, settings.host) }),
  ),
  plugin('framing', (app) => app.register(framing)),
  plugin('draining', (app) => app.register(draining)),
  plugin('requestLog', (app) => app.register(requestLog)),
  plugin('errors', (app) => app.register(errors)),
  plugin('overload', (app, { settings }) =>
    app.register(overload, { maxEventLoopDelayMs: settings.maxEventLoopDelayMs }),
  ),
  plugin('rateLimit', (app, { settings }) =>
    app.register(rateLimit, {
      perMinute: settings.rateLimit,
      redisUrl: settings.rateLimitRedisUrl,
    }),
  ),
  plugin('auth', (app, { authenticator }) => app.register(auth, { authenticator })),
  plugin('streamsPerClient', (app, { settings }) =>
    app.register(streamsPerClient, { maxPerClient: settings.maxStreamsPerClient }),
  ),
  // Never coerce: `{"name": 123}` is a 400, and query, path and header integers are
  // converted by this plugin alone, strictly (without it, Fastify's own coercion applies).
  plugin('strictParams', (app) => app.register(strictParams), {
    ajv: { customOptions: { coerceTypes: false } },
  }),
  plugin('jsonBody', (app) => app.register(jsonBody)),
  // Listings, NDJSON, the API document and the docs' files, never the change feed's stream.
  plugin('compression', (app) => app.register(compression)),
  plugin('docs', (app, { features }) => app.register(docs, features)),
  plugin('health', (app, { settings, storage }) =>
    app.register(health, { storage, timeoutMs: settings.readyTimeoutMs }),
  ),
  // `app.metrics`: what the services report to (without it, their reports go nowhere).
  plugin('metrics', (app, { storage }) => app.register(metrics, { storage })),
]

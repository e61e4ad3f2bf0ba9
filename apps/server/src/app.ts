import cors from '@fastify/cors'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { schemas } from '@tasklane/contract'
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify'
import type { Database } from './db/database.js'
import { ping } from './db/migrations.js'
import {
  clientErrorResponse,
  HttpError,
  parseJsonBody,
  registerErrorHandling,
  sendError,
} from './errors.js'
import { type GuardOptions, registerGuards, setSecurityHeaders } from './guards.js'
import { headerLines } from './http.js'
import { strictParams } from './strict-params.js'
import { taskRoutes } from './tasks/routes.js'

/** Request bodies above this many bytes get 413. */
export const BODY_LIMIT = 64 * 1024

/** What buildApp needs: an open database, logger options and the guards' settings. */
export interface AppOptions extends GuardOptions {
  readonly database: Database
  readonly logger?: FastifyServerOptions['logger']
  /** Origins browsers may call from (CORS), or `['*']`; empty or omitted: CORS is off. */
  readonly corsOrigins?: readonly string[]
  /** Slow clients: ms within which a whole request must arrive (default 30 s). */
  readonly requestTimeoutMs?: number
  /** Slow clients: ms within which a request's headers must arrive (default 10 s). */
  readonly headersTimeoutMs?: number
  /** Concurrent creates share one commit (default); false: one commit per create. */
  readonly groupCommit?: boolean
}

/** Builds the whole application; it never listens (main.ts does, tests may inject). */
export async function buildApp({
  database,
  logger = false,
  corsOrigins = [],
  requestTimeoutMs = 30_000,
  headersTimeoutMs = 10_000,
  groupCommit = true,
  ...guards
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // One log line a request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // Our own 503 below answers requests that arrive while closing, in the Error shape.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Slow clients: the whole request must arrive within 30 s, its headers within 10 s.
    // Node enforces both only when it checks its connections, every 30 s by default;
    // checking every second keeps a slowloris client to about the configured time.
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
      // Node answers a missing Host with an empty 400; the hook below answers in the Error shape.
      requireHostHeader: false,
    },
    clientErrorHandler: (error, socket) => {
      const code = (error as { code?: string }).code
      const status =
        code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
      if (socket.writable) socket.end(clientErrorResponse(status))
      else socket.destroy(error)
    },
    ajv: {
      customOptions: {
        // Never coerce or strip: `{"name": 123}` and `{"name":"a","id":5}` are 400s.
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: false,
        allErrors: false,
        formats: { int32: true, int64: true },
      },
    },
  })

  if (corsOrigins.length > 0) {
    // First, so that every response (errors and 503s included) carries the CORS headers.
    await app.register(cors, {
      origin: corsOrigins.includes('*') ? '*' : [...corsOrigins],
      methods: ['GET', 'HEAD', 'POST'],
      // Headers a browser may only read when listed: pagination, retries, replays.
      exposedHeaders: ['Link', 'Location', 'Retry-After', 'Idempotent-Replayed'],
      maxAge: 600,
    })
  }

  // Every request passes this one hook first (one hook is cheaper than three):
  // - HTTP/1.1 needs exactly one Host header (RFC 9112, section 3.2); Node keeps the first;
  // - while draining, new requests on open connections get 503;
  // - security headers go on every response, errors included.
  let draining = false
  app.addHook('preClose', async () => {
    draining = true
  })
  app.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(request, reply)
    const hosts = headerLines(request.raw.rawHeaders, 'host')
    if (hosts > 1 || (hosts === 0 && request.raw.httpVersion !== '1.0')) {
      done(new HttpError(400, 'The request must carry exactly one Host header.'))
    } else if (draining) {
      reply.header('Connection', 'close')
      done(
        new HttpError(503, 'The server is shutting down; retry the request.', {
          'Retry-After': '1',
        }),
      )
    } else {
      done()
    }
  })
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    )
    done()
  })

  registerErrorHandling(app, BODY_LIMIT)
  await registerGuards(app, guards)
  strictParams(app)

  // Only JSON bodies: Fastify's text/plain parser goes, so any other type gets 415.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody)

  for (const schema of schemas) app.addSchema(schema)

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'tasklane',
        version: '1.0.0',
        description: 'Create and list tasks over HTTP/JSON.',
      },
      tags: [
        { name: 'tasks', description: 'The collection of tasks' },
        { name: 'task', description: 'A single task' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  app.get('/health/live', { schema: { hide: true } }, async () => ({ status: 'ok' }))
  app.get('/health/ready', { schema: { hide: true } }, async (_request, reply) =>
    (await ping(database.db))
      ? { status: 'ok' }
      : sendError(reply, { status: 503, message: 'The database is not reachable.' }),
  )

  await app.register(taskRoutes, { database, groupCommit })
  return app
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { type RouteDefinition, responsesOf, routes, type ServerFeatures } from '@tasklane/contract'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { TaskNotFoundError } from '../errors.js'
import { preferredMedia } from '../http/accept.js'
import { HttpError } from '../http/http-error.js'
import { headerLines } from '../http/raw-request.js'
import type { Storage } from '../storage/index.js'
import { createFeed } from './feed.js'
import { createListing, NDJSON } from './listing.js'
import { createTaskWriter, IDEMPOTENCY_TTL_MS, type WriterObserver } from './writer.js'

/**
 * Fastify route options from a contract route: the schema travels unchanged, its responses
 * completed with the errors this server may answer (so /openapi.json lists them). The
 * reply keeps the type of the route's own responses: the errors are sent by the error
 * handler, never by a handler.
 */
export function fromContract<const R extends RouteDefinition>(route: R, features: ServerFeatures) {
  const { method, path, errors: _errors, responseHeaders: _headers, ...schema } = route
  const response = responsesOf(route, features) as R['response']
  return { method, url: path.replace(/\{(\w+)\}/g, ':$1'), schema: { ...schema, response } }
}

/** Options of the task routes. */
export interface TaskRoutesOptions {
  readonly storage: Storage
  /** Concurrent creates share one commit (default); false: one commit per create. */
  readonly groupCommit?: boolean
  /** Told of every commit and of the write queue's depth (metrics). */
  readonly writerObserver?: WriterObserver
  /** Change-feed subscribers served at once (default 1000). */
  readonly maxSubscribers?: number
  /** Listings streamed at once (default 100). */
  readonly maxStreams?: number
  /** Interval of the change feed's keep-alive comments, in ms (tests shorten it). */
  readonly keepAliveMs?: number | undefined
  /** Told of the change feed's subscriber count each time it changes (metrics). */
  readonly onSubscribers?: (count: number) => void
  /** Which errors beyond the routes' own this server answers (401, 429), for the document. */
  readonly features?: ServerFeatures
}

/**
 * GET /tasks, POST /task, GET /tasks/{id} and GET /tasks/events, registered from the
 * contract's route objects.
 */
export async function taskRoutes(
  app: FastifyInstance,
  {
    storage,
    groupCommit = true,
    writerObserver,
    maxSubscribers = 1000,
    maxStreams,
    keepAliveMs,
    onSubscribers,
    features = { apiToken: false, rateLimit: false },
  }: TaskRoutesOptions,
) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const writer = createTaskWriter(storage, {
    maxBatch: groupCommit ? 512 : 1,
    observer: writerObserver,
  })
  const list = createListing(storage, { maxStreams })
  const feed = createFeed(storage, { maxSubscribers, keepAliveMs, log: app.log, onSubscribers })

  // Resolves to nothing: Fastify's onReady takes a value it is handed as an error.
  const purge = async (): Promise<void> => {
    try {
      const purged = await storage.purgeIdempotencyKeys(Date.now() - IDEMPOTENCY_TTL_MS)
      if (purged > 0) app.log.info({ purged }, 'purged expired idempotency keys')
    } catch (error) {
      app.log.warn({ err: error }, 'could not purge expired idempotency keys')
    }
  }
  const purgeTimer = setInterval(purge, 60 * 60 * 1000).unref()
  app.addHook('onReady', purge)
  // Before the server waits for its responses to finish: a feed never would by itself.
  app.addHook('preClose', async () => feed.close())
  app.addHook('onClose', async () => {
    clearInterval(purgeTimer)
    await writer.close()
  })

  api.route({
    ...fromContract(routes.getTasks, features),
    // The route's reply type is the parsed array; a page or a stream may be sent as is.
    handler: (request, reply) => {
      const media = preferredMedia(request.headers.accept, ['application/json', NDJSON])
      const format = media === NDJSON ? 'ndjson' : 'json'
      return list(request.query, format, reply as FastifyReply) as never
    },
  })

  api.route({
    ...fromContract(routes.watchTasks, features),
    // The route's reply type is the event text; the stream is sent as is.
    handler: async (request, typedReply) => {
      const reply = typedReply as FastifyReply
      // Last-Event-ID is where a reconnecting client left off: it wins over `after`.
      const after = request.headers['last-event-id'] ?? request.query.after
      reply
        .type('text/event-stream')
        // For a proxy that buffers responses by default: events must pass at once.
        .header('X-Accel-Buffering', 'no')
      if (request.method === 'HEAD') return reply.send() as never
      const events = await feed.subscribe({ after, tag: request.query.tag, connection: reply.raw })
      return reply.send(events) as never
    },
  })

  api.route({
    ...fromContract(routes.createTask, features),
    onRequest: (request, _reply, done) => {
      // Checked before parsing: a body-less request without Content-Type skips the parser
      // but is still the wrong type, and Node keeps only the first of several Content-Type
      // lines where a proxy may read the last.
      const lines = headerLines(request.raw.rawHeaders, 'content-type')
      done(
        lines === 1
          ? undefined
          : new HttpError(
              415,
              lines === 0
                ? 'Content-Type must be application/json.'
                : 'Content-Type must be given once, as application/json.',
            ),
      )
    },
    handler: async (request, reply) => {
      const { task, replayed } = await writer.create(
        request.body,
        request.headers['idempotency-key'],
      )
      if (replayed) reply.header('Idempotent-Replayed', 'true')
      return reply.code(201).header('Location', `/tasks/${task.id}`).send(task)
    },
  })

  api.route({
    ...fromContract(routes.getTask, features),
    preValidation: async (request, reply) => {
      // `/tasks/` matches this route with an empty id; it names no task, so no route.
      if ((request.params as { id: unknown }).id === '') {
        reply.callNotFound()
        return reply
      }
    },
    handler: async (request) => {
      const { id } = request.params
      const task = await storage.findTask(id)
      if (!task) throw new TaskNotFoundError(id)
      return task
    },
  })
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { type RouteDefinition, responsesOf, routes, type ServerFeatures } from '@tasklane/contract'
import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify'
import { TaskNotFoundError } from '../errors.js'
import { preferredMedia } from '../http/accept.js'
import { etagOf, ifMatchOf, noneMatchHits } from '../http/entity-tags.js'
import { HttpError } from '../http/http-error.js'
import { headerLines, pathOf } from '../http/raw-request.js'
import { hasStaticRoute } from '../http/static-route.js'
import { parseJsonBody } from '../plugins/json-body.js'
import type { Storage } from '../storage/index.js'
import { Feed } from './feed.js'
import { Listing, NDJSON } from './listing.js'
import {
  IDEMPOTENCY_TTL_MS,
  MAX_BATCH,
  TaskWriter,
  type WriterObserver,
  type Written,
} from './task-writer.js'

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
  /** Concurrent writes share one commit; false: one commit per write. */
  readonly groupCommit: boolean
  /** Told of every commit and of the write queue's depth (metrics). */
  readonly writerObserver?: WriterObserver
  /** Change-feed subscribers served at once. */
  readonly maxSubscribers: number
  /** Listings streamed at once. */
  readonly maxStreams: number
  /** Interval of the change feed's keep-alive comments, in ms (tests shorten it). */
  readonly keepAliveMs?: number | undefined
  /** Told of the change feed's subscriber count each time it changes (metrics). */
  readonly onSubscribers?: (count: number) => void
  /** Which errors beyond the routes' own this server answers (401, 429), for the document. */
  readonly features?: ServerFeatures
}

/** The media types a PATCH body may have: a JSON Merge Patch (RFC 7396), or plain JSON. */
const MERGE_PATCH = 'application/merge-patch+json'
const PATCH_TYPES = `${MERGE_PATCH} or application/json`

/**
 * A body's Content-Type must be given exactly once. Checked before parsing: a body-less
 * request without Content-Type skips the parser but is still the wrong type, and Node keeps
 * only the first of several Content-Type lines where a proxy may read the last.
 */
function oneContentType(expected: string): onRequestHookHandler {
  return (request, _reply, done) => {
    const lines = headerLines(request.raw.rawHeaders, 'content-type')
    done(
      lines === 1
        ? undefined
        : new HttpError(
            415,
            lines === 0
              ? `Content-Type must be ${expected}.`
              : `Content-Type must be given once, as ${expected}.`,
          ),
    )
  }
}

/** A committed write's response: its status, ETag, seq, and whether it is a replay. */
function sendWritten(reply: FastifyReply, status: 200 | 201 | 204, written: Written) {
  if (written.replayed) reply.header('Idempotent-Replayed', 'true')
  if (written.task !== undefined) reply.header('ETag', etagOf(written.task.version))
  reply.code(status).header('Tasklane-Seq', written.seq)
  return written.task === undefined ? reply.send() : reply.send(written.task)
}

/**
 * GET /tasks, POST /task, GET, PATCH and DELETE /tasks/{id} and GET /tasks/events,
 * registered from the contract's route objects.
 */
export async function taskRoutes(
  app: FastifyInstance,
  {
    storage,
    groupCommit,
    writerObserver,
    maxSubscribers,
    maxStreams,
    keepAliveMs,
    onSubscribers,
    features = { apiToken: false, rateLimit: false },
  }: TaskRoutesOptions,
) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const writer = new TaskWriter(storage, {
    maxBatch: groupCommit ? MAX_BATCH : 1,
    pipeline: groupCommit ? storage.batchesInFlight : 1,
    observer: writerObserver,
  })
  const listing = new Listing(storage, { maxStreams })
  const feed = new Feed(storage, { maxSubscribers, keepAliveMs, log: app.log, onSubscribers })

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
      return listing.list(request.query, format, reply as FastifyReply) as never
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
      const { tag, status } = request.query
      const events = await feed.subscribe({ after, tag, status, connection: reply.raw })
      return reply.send(events) as never
    },
  })

  api.route({
    ...fromContract(routes.createTask, features),
    onRequest: oneContentType('application/json'),
    handler: async (request, reply) => {
      const written = await writer.write({
        kind: 'create',
        task: request.body,
        key: request.headers['idempotency-key'],
      })
      reply.header('Location', `/tasks/${(written.task as { id: number }).id}`)
      return sendWritten(reply, 201, written)
    },
  })

  // `/tasks/` matches the single-task routes with an empty id, and PATCH or DELETE
  // `/tasks/events` with the id "events": neither names a task, so no route of a task's (a
  // 404, or a 405 naming the feed's methods). A number never names another route.
  const namesATask = async (request: { params: unknown; url: string }, reply: FastifyReply) => {
    const { id } = request.params as { id: string }
    if (id === '' || (!/^\d+$/.test(id) && hasStaticRoute(app, pathOf(request.url)))) {
      reply.callNotFound()
      return reply
    }
  }

  api.route({
    ...fromContract(routes.getTask, features),
    onRequest: namesATask,
    handler: async (request, reply) => {
      const { id } = request.params
      const { value: task, seq } = await storage.findTask(id)
      if (!task) throw new TaskNotFoundError(id)
      reply.header('ETag', etagOf(task.version)).header('Tasklane-Seq', seq)
      if (noneMatchHits(request.headers['if-none-match'], task.version)) {
        return (reply as FastifyReply).code(304).send()
      }
      return reply.send(task)
    },
  })

  // PATCH takes a JSON Merge Patch, a media type no other route accepts: its parser lives
  // in a scope of its own.
  await app.register(async (scope) => {
    scope.addContentTypeParser(MERGE_PATCH, { parseAs: 'buffer' }, parseJsonBody)
    scope.withTypeProvider<TypeBoxTypeProvider>().route({
      ...fromContract(routes.updateTask, features),
      // Before the Content-Type check: a path that names no task has no type to check.
      onRequest: [namesATask, oneContentType(PATCH_TYPES)],
      config: { contentType: PATCH_TYPES },
      handler: async (request, reply) => {
        const written = await writer.write({
          kind: 'update',
          id: request.params.id,
          patch: request.body,
          ifMatch: ifMatchOf(request.headers['if-match']),
          key: request.headers['idempotency-key'],
        })
        return sendWritten(reply, 200, written)
      },
    })
  })

  // A DELETE's content has no meaning (RFC 9110): whatever a client sends with it, and as
  // whatever type (SDKs send Content-Type on every request), is read and set aside.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null))
    scope.withTypeProvider<TypeBoxTypeProvider>().route({
      ...fromContract(routes.deleteTask, features),
      onRequest: namesATask,
      handler: async (request, reply) => {
        const written = await writer.write({
          kind: 'delete',
          id: request.params.id,
          ifMatch: ifMatchOf(request.headers['if-match']),
          key: request.headers['idempotency-key'],
        })
        return sendWritten(reply, 204, written)
      },
    })
  })
}

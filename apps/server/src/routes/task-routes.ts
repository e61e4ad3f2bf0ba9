import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { routes, type ServerFeatures } from '@tasklane/contract'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { BadRequestError, PreconditionFailedError } from '../domain/domain-errors.js'
import { preferredMedia } from '../http/accept.js'
import {
  etagOf,
  ifMatchOf,
  ifNoneMatchOf,
  matchesIfMatch,
  noneMatchHits,
} from '../http/entity-tags.js'
import { parseJsonBody } from '../http/json-body-parser.js'
import {
  fromContract,
  MERGE_PATCH,
  namesOneResource,
  oneContentType,
  PATCH_TYPES,
} from '../http/route-options.js'
import { type ListingAnswer, NDJSON } from '../tasks/listing.js'
import type { TaskReads } from '../tasks/task-reads.js'
import type { TaskWriter, Written } from '../tasks/task-writer.js'

/** What the task routes map requests to. */
export interface TaskRoutesOptions {
  readonly writer: TaskWriter
  readonly reads: TaskReads
  /** Which errors beyond the routes' own this server answers (401, 429), for the document. */
  readonly features: ServerFeatures
}

/** A committed write's response: its status, ETag, seq, and whether it is a replay. */
function sendWritten(reply: FastifyReply, status: 200 | 201 | 204, written: Written) {
  if (written.replayed) reply.header('Idempotent-Replayed', 'true')
  if (written.task !== undefined) reply.header('ETag', etagOf(written.task.version))
  reply.code(status).header('Tasklane-Seq', written.seq)
  return written.task === undefined ? reply.send() : reply.send(written.task)
}

/** A listing's answer as the response: its headers, then its body (in memory or streamed). */
function sendListing(reply: FastifyReply, method: string, answer: ListingAnswer) {
  // Added to what is there already (CORS varies by Origin).
  const vary = reply.getHeader('vary')
  reply.header('Vary', vary === undefined ? 'Accept' : `${vary}, Accept`)
  reply.type(answer.contentType).header('Tasklane-Seq', answer.seq)
  if (answer.link !== undefined) reply.header('Link', answer.link)
  // HEAD answers the headers alone: a stream nobody reads is ended here, not left to fail.
  if (method === 'HEAD' && typeof answer.body === 'object' && 'destroy' in answer.body) {
    answer.body.destroy()
    return reply.send()
  }
  return reply.send(answer.body)
}

/** GET /tasks, POST /task, GET, PATCH and DELETE /tasks/{id}, from the contract's routes. */
export async function taskRoutes(
  app: FastifyInstance,
  { writer, reads, features }: TaskRoutesOptions,
) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const namesATask = namesOneResource(app)

  api.route({
    ...fromContract(routes.getTasks, features),
    handler: async (request, reply) => {
      const media = preferredMedia(request.headers.accept, ['application/json', NDJSON])
      const answer = await reads.list(
        request.credential.caller,
        request.query,
        media === NDJSON ? 'ndjson' : 'json',
        (listener) => reply.raw.once('close', listener),
      )
      return sendListing(reply, request.method, answer)
    },
  })

  api.route({
    ...fromContract(routes.createTask, features),
    onRequest: oneContentType('application/json'),
    handler: async (request, reply) => {
      const written = await writer.write({
        caller: request.credential.caller,
        kind: 'create',
        task: request.body,
        key: request.headers['idempotency-key'],
      })
      reply.header('Location', `/tasks/${(written.task as { id: number }).id}`)
      return sendWritten(reply, 201, written)
    },
  })

  api.route({
    ...fromContract(routes.getTask, features),
    onRequest: namesATask,
    handler: async (request, reply) => {
      const { value: task, seq } = await reads.find(request.credential.caller, request.params.id)
      reply.header('ETag', etagOf(task.version)).header('Tasklane-Seq', seq)
      // RFC 9110 13.1.1: a false If-Match stops any method, a read too.
      if (!matchesIfMatch(request.headers['if-match'], task.version)) {
        throw new PreconditionFailedError(task.id, task.version)
      }
      if (noneMatchHits(request.headers['if-none-match'], task.version)) {
        return (reply as FastifyReply).code(304).send()
      }
      return reply.send(task)
    },
  })

  api.route({
    ...fromContract(routes.moveTask, features),
    onRequest: [namesATask, oneContentType('application/json')],
    handler: async (request, reply) => {
      const move = request.body
      const named = [move.before, move.after, move.to].filter((value) => value !== undefined)
      if (named.length !== 1) {
        throw new BadRequestError(
          'The move must name exactly one of "before", "after" and "to" (top or bottom).',
        )
      }
      const written = await writer.write({
        caller: request.credential.caller,
        kind: 'move',
        id: request.params.id,
        move,
        ifMatch: ifMatchOf(request.headers['if-match']),
        ifNoneMatch: ifNoneMatchOf(request.headers['if-none-match']),
        key: request.headers['idempotency-key'],
      })
      return sendWritten(reply, 200, written)
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
          caller: request.credential.caller,
          kind: 'update',
          id: request.params.id,
          patch: request.body,
          ifMatch: ifMatchOf(request.headers['if-match']),
          ifNoneMatch: ifNoneMatchOf(request.headers['if-none-match']),
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
          caller: request.credential.caller,
          kind: 'delete',
          id: request.params.id,
          ifMatch: ifMatchOf(request.headers['if-match']),
          ifNoneMatch: ifNoneMatchOf(request.headers['if-none-match']),
          key: request.headers['idempotency-key'],
        })
        return sendWritten(reply, 204, written)
      },
    })
  })
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { type List, routes, type ServerFeatures } from '@tasklane/contract'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { PreconditionFailedError } from '../domain/domain-errors.js'
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
import type { ListService, ListWritten } from '../lists/list-service.js'

/** A committed list write's response: status, ETag of the list, seq, whether replayed. */
function sendWritten(reply: FastifyReply, status: 200 | 201 | 204, written: ListWritten) {
  if (written.replayed) reply.header('Idempotent-Replayed', 'true')
  const body: List | undefined = written.list
  if (body !== undefined) reply.header('ETag', etagOf(body.version))
  reply.code(status).header('Tasklane-Seq', written.seq)
  return body === undefined ? reply.send() : reply.send(body)
}

/**
 * GET /lists, POST /list, GET, PATCH and DELETE /lists/{id}, and a list's members: GET
 * /lists/{id}/members, PUT and DELETE /lists/{id}/members/{principal}.
 */
export async function listRoutes(
  app: FastifyInstance,
  { lists, features }: { lists: ListService; features: ServerFeatures },
) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const namesAList = namesOneResource(app)

  api.route({
    ...fromContract(routes.getLists, features),
    handler: async (request, reply) => {
      const page = await lists.lists(request.credential.caller, request.query)
      const { limit } = request.query
      if (page.lastId !== undefined) {
        reply.header('Link', `</lists?limit=${limit}&after=${page.lastId}>; rel="next"`)
      }
      return reply.header('Tasklane-Seq', page.seq).send(page.value)
    },
  })

  api.route({
    ...fromContract(routes.createList, features),
    onRequest: oneContentType('application/json'),
    handler: async (request, reply) => {
      const written = await lists.create({
        caller: request.credential.caller,
        name: request.body.name,
        key: request.headers['idempotency-key'],
      })
      reply.header('Location', `/lists/${(written.list as List).id}`)
      return sendWritten(reply, 201, written)
    },
  })

  api.route({
    ...fromContract(routes.getList, features),
    onRequest: namesAList,
    handler: async (request, reply) => {
      const { value: list, seq } = await lists.list(request.credential.caller, request.params.id)
      reply.header('ETag', etagOf(list.version)).header('Tasklane-Seq', seq)
      if (!matchesIfMatch(request.headers['if-match'], list.version)) {
        throw new PreconditionFailedError(list.id, list.version, 'List')
      }
      if (noneMatchHits(request.headers['if-none-match'], list.version)) {
        return (reply as FastifyReply).code(304).send()
      }
      return reply.send(list)
    },
  })

  api.route({
    ...fromContract(routes.getMembers, features),
    handler: async (request, reply) => {
      const { value, seq } = await lists.members(request.credential.caller, request.params.id)
      return reply.header('Tasklane-Seq', seq).send(value)
    },
  })

  api.route({
    ...fromContract(routes.putMember, features),
    onRequest: oneContentType('application/json'),
    handler: async (request, reply) => {
      const written = await lists.putMember({
        caller: request.credential.caller,
        listId: request.params.id,
        principal: request.params.principal,
        role: request.body.role,
        key: request.headers['idempotency-key'],
      })
      if (written.replayed) reply.header('Idempotent-Replayed', 'true')
      const member = written.member as NonNullable<ListWritten['member']>
      reply.code(member.created ? 201 : 200).header('Tasklane-Seq', written.seq)
      return reply.send({ principal: member.principal, role: member.role })
    },
  })

  await app.register(async (scope) => {
    scope.addContentTypeParser(MERGE_PATCH, { parseAs: 'buffer' }, parseJsonBody)
    scope.withTypeProvider<TypeBoxTypeProvider>().route({
      ...fromContract(routes.updateList, features),
      onRequest: [namesAList, oneContentType(PATCH_TYPES)],
      config: { contentType: PATCH_TYPES },
      handler: async (request, reply) => {
        const written = await lists.rename({
          caller: request.credential.caller,
          id: request.params.id,
          name: request.body.name as string,
          ifMatch: ifMatchOf(request.headers['if-match']),
          ifNoneMatch: ifNoneMatchOf(request.headers['if-none-match']),
          key: request.headers['idempotency-key'],
        })
        return sendWritten(reply, 200, written)
      },
    })
  })

  // A DELETE's content has no meaning (RFC 9110): read and set aside, whatever its type.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null))
    const api = scope.withTypeProvider<TypeBoxTypeProvider>()
    api.route({
      ...fromContract(routes.deleteList, features),
      onRequest: namesAList,
      handler: async (request, reply) => {
        const written = await lists.delete({
          caller: request.credential.caller,
          id: request.params.id,
          ifMatch: ifMatchOf(request.headers['if-match']),
          ifNoneMatch: ifNoneMatchOf(request.headers['if-none-match']),
          key: request.headers['idempotency-key'],
        })
        return sendWritten(reply, 204, written)
      },
    })
    api.route({
      ...fromContract(routes.deleteMember, features),
      handler: async (request, reply) => {
        const written = await lists.removeMember({
          caller: request.credential.caller,
          listId: request.params.id,
          principal: request.params.principal,
          key: request.headers['idempotency-key'],
        })
        return sendWritten(reply, 204, written)
      },
    })
  })
}

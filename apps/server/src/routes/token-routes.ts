import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { type Me, routes, type ServerFeatures, type Token } from '@tasklane/contract'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { RightsCache } from '../access/rights-cache.js'
import type { TokenService } from '../access/token-service.js'
import { fromContract, oneContentType } from '../http/route-options.js'
import type { TokenRecord } from '../storage/open-storage.js'

/** A token's record as the API answers it (never its digest). */
function toToken(record: TokenRecord): Token {
  const token: Token = {
    id: record.id,
    name: record.name,
    principal: record.principal,
    role: record.role,
    createdAt: new Date(record.createdAt).toISOString(),
    createdBy: record.createdBy,
  }
  if (record.lists !== undefined) token.lists = [...record.lists]
  if (record.expiresAt !== undefined) token.expiresAt = new Date(record.expiresAt).toISOString()
  return token
}

/** POST /tokens, GET /tokens, DELETE /tokens/{id} and GET /me. */
export async function tokenRoutes(
  app: FastifyInstance,
  {
    tokens,
    rights,
    features,
  }: { tokens: TokenService; rights: RightsCache; features: ServerFeatures },
) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.route({
    ...fromContract(routes.createToken, features),
    onRequest: oneContentType('application/json'),
    handler: async (request, reply) => {
      const { caller, expiresAt, tokenHash } = request.credential
      // An access token makes none that outlives it.
      const notAfter = tokenHash === undefined ? undefined : expiresAt
      const { record, secret } = await tokens.create(caller, request.body, Date.now(), notAfter)
      reply.code(201).header('Location', `/tokens/${record.id}`)
      // Never kept by a cache or a proxy: the secret is in this response only.
      reply.header('Cache-Control', 'no-store')
      return reply.send({ ...toToken(record), token: secret })
    },
  })

  api.route({
    ...fromContract(routes.getTokens, features),
    handler: async (request, reply) =>
      reply.send((await tokens.list(request.credential.caller)).map(toToken)),
  })

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null))
    scope.withTypeProvider<TypeBoxTypeProvider>().route({
      ...fromContract(routes.deleteToken, features),
      handler: async (request, reply) => {
        const seq = await tokens.revoke(request.credential.caller, request.params.id)
        return (reply as FastifyReply).code(204).header('Tasklane-Seq', seq).send()
      },
    })
  })

  api.route({
    ...fromContract(routes.getMe, features),
    handler: async (request, reply) => {
      const { caller } = request.credential
      const held = await rights.rightsOf(caller)
      const me: Me = {
        principal: caller.principal,
        role: caller.access,
        roles: [...held.roles].map(([listId, role]) => ({ listId, role })),
      }
      if (caller.lists !== undefined) me.lists = [...caller.lists]
      return reply.send(me)
    },
  })
}

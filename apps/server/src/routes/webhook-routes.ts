import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { routes, type ServerFeatures, type Webhook, type WebhookDelivery } from '@tasklane/contract'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { parseJsonBody } from '../http/json-body-parser.js'
import {
  fromContract,
  MERGE_PATCH,
  namesOneResource,
  oneContentType,
  PATCH_TYPES,
} from '../http/route-options.js'
import type { DeliveryRecord, WebhookRecord } from '../storage/open-storage.js'
import type { WebhookService } from '../webhooks/webhook-service.js'

const time = (ms: number) => new Date(ms).toISOString()

/** A webhook's record as the API answers it (never its secret). */
function toWebhook(record: WebhookRecord): Webhook {
  // The contract's key order, as every other resource has it.
  return {
    id: record.id,
    url: record.url,
    ...(record.lists === undefined ? {} : { lists: [...record.lists] }),
    types: [...record.types],
    enabled: record.enabled,
    status: record.status,
    cursor: record.cursor,
    createdAt: time(record.createdAt),
    updatedAt: time(record.updatedAt),
    ...(record.failingSince === undefined ? {} : { failingSince: time(record.failingSince) }),
  }
}

const toDelivery = (record: DeliveryRecord): WebhookDelivery => ({ ...record, at: time(record.at) })

/**
 * POST /webhooks, GET /webhooks, GET, PATCH and DELETE /webhooks/{id}, GET
 * /webhooks/{id}/deliveries.
 */
export async function webhookRoutes(
  app: FastifyInstance,
  { webhooks, features }: { webhooks: WebhookService; features: ServerFeatures },
) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const namesAWebhook = namesOneResource(app)

  api.route({
    ...fromContract(routes.createWebhook, features),
    onRequest: oneContentType('application/json'),
    handler: async (request, reply) => {
      const { record, secret } = await webhooks.create(request.credential.caller, request.body)
      reply.code(201).header('Location', `/webhooks/${record.id}`)
      // Never kept by a cache or a proxy: the secret is in this response only.
      reply.header('Cache-Control', 'no-store')
      return reply.send({ ...toWebhook(record), secret })
    },
  })

  api.route({
    ...fromContract(routes.getWebhooks, features),
    handler: async (request, reply) =>
      reply.send((await webhooks.list(request.credential.caller)).map(toWebhook)),
  })

  api.route({
    ...fromContract(routes.getWebhook, features),
    onRequest: namesAWebhook,
    handler: async (request, reply) =>
      reply.send(toWebhook(await webhooks.get(request.credential.caller, request.params.id))),
  })

  api.route({
    ...fromContract(routes.getWebhookDeliveries, features),
    handler: async (request, reply) => {
      const deliveries = await webhooks.deliveries(request.credential.caller, request.params.id)
      return reply.send(deliveries.map(toDelivery))
    },
  })

  await app.register(async (scope) => {
    scope.addContentTypeParser(MERGE_PATCH, { parseAs: 'buffer' }, parseJsonBody)
    scope.withTypeProvider<TypeBoxTypeProvider>().route({
      ...fromContract(routes.updateWebhook, features),
      onRequest: [namesAWebhook, oneContentType(PATCH_TYPES)],
      config: { contentType: PATCH_TYPES },
      handler: async (request, reply) => {
        const { caller } = request.credential
        const record = await webhooks.update(caller, request.params.id, request.body)
        return reply.send(toWebhook(record))
      },
    })
  })

  // A DELETE's content has no meaning (RFC 9110): read and set aside, whatever its type.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null))
    scope.withTypeProvider<TypeBoxTypeProvider>().route({
      ...fromContract(routes.deleteWebhook, features),
      onRequest: namesAWebhook,
      handler: async (request, reply) => {
        await webhooks.delete(request.credential.caller, request.params.id)
        return (reply as FastifyReply).code(204).send()
      },
    })
  })
}

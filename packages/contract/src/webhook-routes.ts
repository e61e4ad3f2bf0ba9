// The routes of webhooks, as data (see routes.ts).
import { Type } from '@sinclair/typebox'
import { ErrorBody } from './error.js'
import { PATCH_MEDIA_TYPES, type RouteDefinition } from './route-definition.js'
import { ref } from './task.js'
import {
  CreatedWebhook,
  NewWebhook,
  Webhook,
  WebhookDelivery,
  WebhookParams,
  WebhookPatch,
} from './webhooks.js'

const errorRef = ref(ErrorBody, { description: 'Unexpected error' })

const NOT_FOUND = "No webhook has this id, or it is another principal's."
const BAD_ID = 'The id is not a whole number from 1 to 2^53−1.'

/** The routes of webhooks, keyed by operationId. */
export const webhookRoutes = {
  createWebhook: {
    operationId: 'createWebhook',
    method: 'POST',
    path: '/webhooks',
    tags: ['webhooks'],
    summary: 'Make a webhook: every change its creator can read, posted to a URL.',
    description:
      'Deliveries follow the Standard Webhooks format (webhook-id, webhook-timestamp, webhook-signature), one at a time, in seq order, retried with backoff until a 2xx; the signing secret is in this response only. Without `after` it starts after the newest change at its creation.',
    body: ref(NewWebhook),
    response: { 201: ref(CreatedWebhook, { description: 'Created' }), default: errorRef },
    responseHeaders: { 201: ['Location'] },
    errors: {
      400: 'The body is not a valid NewWebhook (the message names the field), or its url is not http(s) or names a private, loopback, link-local or multicast address.',
      413: 'The body is larger than 64 KiB.',
      415: 'The body is not application/json.',
    },
  },
  getWebhooks: {
    operationId: 'getWebhooks',
    method: 'GET',
    path: '/webhooks',
    tags: ['webhooks'],
    summary: "List the caller's webhooks, never their secrets.",
    description: 'Only those its principal made, oldest first.',
    querystring: Type.Object({}, { additionalProperties: false }),
    response: { 200: Type.Array(ref(Webhook), { description: 'Success' }), default: errorRef },
    errors: { 400: 'A query parameter was sent: this route takes none.' },
  },
  getWebhook: {
    operationId: 'getWebhook',
    method: 'GET',
    path: '/webhooks/{id}',
    tags: ['webhooks'],
    summary: 'One of the caller’s webhooks: its state and how far it got (cursor).',
    description: 'Its status says whether deliveries fail (failing) or stopped (disabled).',
    params: WebhookParams,
    response: { 200: ref(Webhook, { description: 'Success' }), default: errorRef },
    errors: { 400: BAD_ID, 404: NOT_FOUND },
  },
  updateWebhook: {
    operationId: 'updateWebhook',
    method: 'PATCH',
    path: '/webhooks/{id}',
    tags: ['webhooks'],
    summary: 'Change a webhook: its url, lists, types, enabled, or its cursor (to replay).',
    description:
      'As application/merge-patch+json or application/json. A cursor below the current one delivers the changes after it again (those still kept: HISTORY_RETENTION_DAYS); enabled true starts a disabled or failing webhook again at once.',
    params: WebhookParams,
    body: ref(WebhookPatch),
    consumes: PATCH_MEDIA_TYPES,
    response: {
      200: ref(Webhook, { description: 'Success: the webhook after the change' }),
      default: errorRef,
    },
    errors: {
      400: 'The id or the patch is not valid (the message names the field), or the patch is empty.',
      404: NOT_FOUND,
      413: 'The body is larger than 64 KiB.',
      415: 'The body is not application/merge-patch+json or application/json.',
    },
  },
  deleteWebhook: {
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: '/webhooks/{id}',
    tags: ['webhooks'],
    summary: 'Delete a webhook: no more deliveries (one under way may finish).',
    description: 'Its deliveries go with it.',
    params: WebhookParams,
    response: { 204: Type.Null({ description: 'Deleted' }), default: errorRef },
    errors: { 400: BAD_ID, 404: NOT_FOUND },
  },
  getWebhookDeliveries: {
    operationId: 'getWebhookDeliveries',
    method: 'GET',
    path: '/webhooks/{id}/deliveries',
    tags: ['webhooks'],
    summary: "A webhook's latest 100 delivery attempts, newest first.",
    description:
      'Each with the seq it delivered, the status it got (null: none), its duration and error.',
    params: WebhookParams,
    response: {
      200: Type.Array(ref(WebhookDelivery), { description: 'Success' }),
      default: errorRef,
    },
    errors: { 400: BAD_ID, 404: NOT_FOUND },
  },
} as const satisfies Record<string, RouteDefinition>

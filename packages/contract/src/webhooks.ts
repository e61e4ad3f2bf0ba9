// Webhooks: every change of the tasks its creator can read, posted to a URL in the Standard
// Webhooks format, in seq order, one at a time, retried until acknowledged.
import { type Static, Type } from '@sinclair/typebox'
import { ListIdOf, MAX_TASK_ID, Timestamp } from './field-types.js'

/** The largest seq a cursor or `after` may name. */
const SeqOf = (description: string) =>
  Type.Integer({ minimum: 0, maximum: MAX_TASK_ID, format: 'int64', description, examples: [0] })

const WebhookId = Type.Integer({
  minimum: 1,
  maximum: MAX_TASK_ID,
  format: 'int64',
  description: 'Identifier of the webhook.',
  examples: [1],
})

/** What a webhook may be sent. */
export const WebhookEventType = Type.Union(
  [Type.Literal('task.created'), Type.Literal('task.updated'), Type.Literal('task.deleted')],
  {
    description:
      'task.created; task.updated (a change, also a move within or into another list); task.deleted.',
  },
)
/** What a webhook may be sent. */
export type WebhookEventType = Static<typeof WebhookEventType>

/** Every event type, in the order a webhook without `types` gets them. */
export const WEBHOOK_EVENT_TYPES = ['task.created', 'task.updated', 'task.deleted'] as const

/** A webhook's state: delivering; failing for 24 h or more (still retried); disabled. */
export const WebhookStatus = Type.Union(
  [Type.Literal('active'), Type.Literal('failing'), Type.Literal('disabled')],
  {
    description:
      'active: delivering (or waiting for a retry); failing: its deliveries have failed for 24 h or more (still retried hourly); disabled: by a PATCH or by a 410 answer.',
  },
)
/** A webhook's state. */
export type WebhookStatus = Static<typeof WebhookStatus>

const WebhookUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: '^[hH][tT][tT][pP][sS]?://',
  description:
    'an absolute http or https URL of at most 2048 characters. Where changes are posted; its host must not be a private, loopback, link-local or multicast address unless WEBHOOK_ALLOWED_HOSTS lists it.',
  examples: ['https://hooks.example.com/tasklane'],
})

const WebhookLists = Type.Array(ListIdOf('A list whose changes the webhook is sent.'), {
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
  description: 'Only changes of tasks in these lists. Omitted: every list its creator can read.',
})

const WebhookTypes = Type.Array(WebhookEventType, {
  minItems: 1,
  uniqueItems: true,
  description: 'Only these events. Omitted: all three.',
})

const webhookFields = {
  id: WebhookId,
  url: Type.String({ description: 'Where changes are posted.' }),
  lists: Type.Optional(
    Type.Array(ListIdOf('A list whose changes the webhook is sent.'), {
      description: 'Only changes of tasks in these lists (absent: every list its creator reads).',
    }),
  ),
  types: Type.Array(WebhookEventType, { description: 'The events it is sent.' }),
  enabled: Type.Boolean({ description: 'Whether it is delivered.' }),
  status: WebhookStatus,
  cursor: SeqOf(
    'The seq of the last change it acknowledged or was not sent (its creator cannot read it, or its filters leave it out).',
  ),
  createdAt: Timestamp('When the webhook was made.'),
  updatedAt: Timestamp('When the webhook was last changed.'),
  failingSince: Type.Optional(
    Timestamp('When its deliveries started failing (absent while the last one succeeded).'),
  ),
}

/** A webhook as listed: never its secret. */
export const Webhook = Type.Object(webhookFields, {
  $id: 'Webhook',
  additionalProperties: false,
  description: 'A webhook: where its creator’s changes are posted, and how far it got.',
})
/** A webhook as listed. */
export type Webhook = Static<typeof Webhook>

/** A webhook as made: its record and, this once, its signing secret. */
export const CreatedWebhook = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({
      pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
      description:
        'The signing secret: whsec_ and the base64 of 32 random bytes, the key of every webhook-signature. Shown this once.',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw0XQyC5eXGvE='],
    }),
  },
  {
    $id: 'CreatedWebhook',
    additionalProperties: false,
    description: 'A new webhook, with its signing secret (shown this once).',
  },
)
/** A webhook as made. */
export type CreatedWebhook = Static<typeof CreatedWebhook>

/** The body of POST /webhooks. */
export const NewWebhook = Type.Object(
  {
    url: WebhookUrl,
    lists: Type.Optional(WebhookLists),
    types: Type.Optional(WebhookTypes),
    after: Type.Optional(
      SeqOf('Deliver the changes after this seq. Omitted: after the newest change at creation.'),
    ),
  },
  { $id: 'NewWebhook', additionalProperties: false, description: 'A webhook to make.' },
)
/** The body of POST /webhooks. */
export type NewWebhook = Static<typeof NewWebhook>

/** The body of PATCH /webhooks/{id}: the fields to change. */
export const WebhookPatch = Type.Object(
  {
    url: Type.Optional(WebhookUrl),
    lists: Type.Optional(
      Type.Union([WebhookLists, Type.Null()], {
        description: 'Only changes of tasks in these lists; null: every list its creator reads.',
      }),
    ),
    types: Type.Optional(WebhookTypes),
    enabled: Type.Optional(
      Type.Boolean({
        description: 'false stops deliveries; true starts them again (status active, no wait).',
      }),
    ),
    cursor: Type.Optional(
      SeqOf('Deliver the changes after this seq next: a smaller one replays, a larger one skips.'),
    ),
  },
  {
    $id: 'WebhookPatch',
    additionalProperties: false,
    minProperties: 1,
    description: 'What to change of a webhook.',
  },
)
/** The body of PATCH /webhooks/{id}. */
export type WebhookPatch = Static<typeof WebhookPatch>

/** One attempt to deliver a change. */
export const WebhookDelivery = Type.Object(
  {
    seq: SeqOf('The seq of the change it delivered.'),
    at: Timestamp('When the attempt started.'),
    status: Type.Union([Type.Integer({ minimum: 100, maximum: 999 }), Type.Null()], {
      description: "The receiver's HTTP status; null when none came (refused, timed out).",
    }),
    durationMs: Type.Integer({ minimum: 0, description: 'How long the attempt took (ms).' }),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why it failed; null when acknowledged (a 2xx).',
    }),
  },
  {
    $id: 'WebhookDelivery',
    additionalProperties: false,
    description: 'One attempt to deliver a change to a webhook.',
  },
)
/** One attempt to deliver a change. */
export type WebhookDelivery = Static<typeof WebhookDelivery>

/** Path parameters of /webhooks/{id}. */
export const WebhookParams = Type.Object({ id: WebhookId }, { additionalProperties: false })
/** Path parameters of /webhooks/{id}. */
export type WebhookParams = Static<typeof WebhookParams>

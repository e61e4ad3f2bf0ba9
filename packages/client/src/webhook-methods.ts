import type { RequestOptions } from './options.js'
import { fillPath, WEBHOOK_DELIVERIES_PATH, WEBHOOK_PATH, WEBHOOKS_PATH } from './paths.js'
import type { SchemaName } from './response-validator.js'
import type { Transport } from './transport.js'
import type {
  CreatedWebhook,
  NewWebhook,
  Webhook,
  WebhookDelivery,
  WebhookPatch,
} from './webhook-types.js'

/** The methods of webhooks: each belongs to the principal that made it. */
export interface WebhookMethods {
  /**
   * Makes a webhook: every change you can read, posted to `url` one at a time, in seq order,
   * retried until acknowledged. Returns it with its `secret`, shown this once: keep it to
   * check deliveries with `verifyWebhook`. Never retried (a retry could make a second one).
   * @example
   * const hook = await client.createWebhook({ url: 'https://hooks.example.com/tl', types: ['task.created'] })
   */
  createWebhook(webhook: NewWebhook, options?: RequestOptions): Promise<CreatedWebhook>
  /**
   * Your webhooks, never their secrets.
   * @example
   * for (const hook of await client.listWebhooks()) console.log(hook.id, hook.status)
   */
  listWebhooks(options?: RequestOptions): Promise<Webhook[]>
  /**
   * One of your webhooks: its status and how far it got (`cursor`).
   * @example
   * const { status, cursor } = await client.getWebhook(1)
   */
  getWebhook(id: number, options?: RequestOptions): Promise<Webhook>
  /**
   * Changes a webhook; `{ cursor }` below the current one delivers those changes again,
   * `{ enabled: true }` starts a disabled or failing one again at once.
   * @example
   * await client.updateWebhook(1, { cursor: 0 })
   */
  updateWebhook(id: number, patch: WebhookPatch, options?: RequestOptions): Promise<Webhook>
  /**
   * Deletes a webhook: no more deliveries.
   * @example
   * await client.deleteWebhook(1)
   */
  deleteWebhook(id: number, options?: RequestOptions): Promise<void>
  /**
   * A webhook's latest 100 delivery attempts, newest first.
   * @example
   * const [last] = await client.listWebhookDeliveries(1) // { seq, at, status, durationMs, error }
   */
  listWebhookDeliveries(id: number, options?: RequestOptions): Promise<WebhookDelivery[]>
}

/** The webhook methods of a client, on its transport. */
export function webhookMethods(transport: Transport): WebhookMethods {
  const call = async <T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: RequestOptions | undefined,
    schema?: SchemaName,
    body?: NewWebhook | WebhookPatch,
  ) => (await transport.send<T>({ method, path, body, schema, options })).data
  const one = (id: number) => fillPath(WEBHOOK_PATH, id)

  return {
    // No Idempotency-Key: the transport retries no POST without one.
    createWebhook: (webhook, options) =>
      call<CreatedWebhook>('POST', WEBHOOKS_PATH, options, 'CreatedWebhook', webhook),
    listWebhooks: (options) => call<Webhook[]>('GET', WEBHOOKS_PATH, options, 'Webhook[]'),
    getWebhook: (id, options) => call<Webhook>('GET', one(id), options, 'Webhook'),
    updateWebhook: (id, patch, options) =>
      call<Webhook>('PATCH', one(id), options, 'Webhook', patch),
    deleteWebhook: (id, options) => call<undefined>('DELETE', one(id), options),
    listWebhookDeliveries: (id, options) =>
      call<WebhookDelivery[]>(
        'GET',
        fillPath(WEBHOOK_DELIVERIES_PATH, id),
        options,
        'WebhookDelivery[]',
      ),
  }
}

import type { Webhook, WebhookDelivery } from '@tasklane/client'
import { columns } from './columns.js'
import { terminalText } from './terminal-text.js'

/** A list of values as `1,2`; `all` when there is none (every list, every type). */
function listText(values: readonly unknown[] | undefined): string {
  return values === undefined || !Array.isArray(values) ? 'all' : terminalText(values.join(','))
}

/**
 * Webhooks as a table with the header `ID  STATUS  ENABLED  CURSOR  URL  LISTS  TYPES`,
 * every field escaped for a terminal: LISTS `all` when it has none (every list).
 */
export function formatWebhooks(webhooks: readonly Webhook[]): string {
  const rows = [
    ['ID', 'STATUS', 'ENABLED', 'CURSOR', 'URL', 'LISTS', 'TYPES'],
    ...webhooks.map((hook) => [
      terminalText(hook.id),
      terminalText(hook.status),
      hook.enabled ? 'yes' : 'no',
      terminalText(hook.cursor),
      terminalText(hook.url),
      listText(hook.lists),
      listText(hook.types),
    ]),
  ]
  return columns(rows, new Set([0, 3]))
}

/**
 * Delivery attempts as a table with the header `SEQ  STATUS  MS  AT  ERROR`: STATUS the
 * receiver's HTTP status, `-` when none came; ERROR empty when it was acknowledged.
 */
export function formatDeliveries(deliveries: readonly WebhookDelivery[]): string {
  const rows = [
    ['SEQ', 'STATUS', 'MS', 'AT', 'ERROR'],
    ...deliveries.map((delivery) => [
      terminalText(delivery.seq),
      delivery.status === null ? '-' : terminalText(delivery.status),
      terminalText(delivery.durationMs),
      terminalText(delivery.at),
      delivery.error === null ? '' : terminalText(delivery.error),
    ]),
  ]
  return columns(rows, new Set([0, 2]))
}

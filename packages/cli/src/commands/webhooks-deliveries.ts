import { defineCommand } from '../command-line/define-command.js'
import { toJson } from '../format/json.js'
import { formatDeliveries } from '../format/webhook-tables.js'
import { json } from './shared-flags.js'

/** `tasklane webhooks deliveries <id> [--json]`: a webhook's latest delivery attempts. */
export const webhooksDeliveriesCommand = defineCommand({
  name: 'webhooks deliveries',
  summary: "Print a webhook's latest 100 delivery attempts, newest first.",
  details:
    'One line an attempt: the seq of the change it delivered, the HTTP status the\n' +
    'receiver answered (-: none came), how long it took in ms, when it started, and why\n' +
    'it failed (empty: acknowledged).',
  args: [{ name: 'id', type: 'integer' }],
  flags: { json },
  async run(options, context) {
    const deliveries = await context.client.listWebhookDeliveries(options.id, {
      signal: context.signal,
    })
    const { stdout } = context
    if (options.json) stdout.write(`${toJson(deliveries, 2)}\n`)
    else if (deliveries.length === 0) stdout.write('No deliveries yet.\n')
    else stdout.write(formatDeliveries(deliveries))
    return 0
  },
})

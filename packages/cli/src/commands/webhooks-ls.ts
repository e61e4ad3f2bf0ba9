import { defineCommand } from '../command-line/define-command.js'
import { toJson } from '../format/json.js'
import { formatWebhooks } from '../format/webhook-tables.js'
import { json } from './shared-flags.js'

/** `tasklane webhooks ls [--json]`: your webhooks, never their secrets. */
export const webhooksLsCommand = defineCommand({
  name: 'webhooks ls',
  summary: 'List your webhooks: status, how far each got, what it sends.',
  details:
    'One line a webhook: its id; its status (active; failing: its deliveries have failed\n' +
    'for 24 hours and are tried hourly; disabled); whether it is enabled; its cursor (the\n' +
    'seq of the last change it acknowledged or was not sent); its URL; its lists and\n' +
    'event types (all: every one). Never a secret.',
  args: [],
  flags: { json },
  async run(options, context) {
    const webhooks = await context.client.listWebhooks({ signal: context.signal })
    const { stdout } = context
    if (options.json) stdout.write(`${toJson(webhooks, 2)}\n`)
    else if (webhooks.length === 0) stdout.write('No webhooks.\n')
    else stdout.write(formatWebhooks(webhooks))
    return 0
  },
})

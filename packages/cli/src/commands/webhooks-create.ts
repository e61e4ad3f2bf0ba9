import type { WebhookEventType } from '@tasklane/client'
import { defineCommand } from '../command-line/define-command.js'
import { toJson } from '../format/json.js'
import { terminalText } from '../format/terminal-text.js'
import { formatWebhooks } from '../format/webhook-tables.js'
import { listFlag, resolveLists } from './list-ref.js'
import { json } from './shared-flags.js'

/** The events a webhook may be sent, as `--type` takes them. */
const TYPES = [
  'task.created',
  'task.updated',
  'task.deleted',
] as const satisfies readonly WebhookEventType[]

/**
 * `tasklane webhooks create <url> [--list LIST]… [--type TYPE]… [--after SEQ] [--json]`:
 * makes a webhook and prints it with its secret, which is never shown again.
 */
export const webhooksCreateCommand = defineCommand({
  name: 'webhooks create',
  summary: 'Make a webhook: each change posted to a URL; print its secret once.',
  details:
    'Every change of a task you can read is posted to <url>, one at a time in seq order,\n' +
    'and retried until the receiver answers 2xx. --list (an id or a name; again for more)\n' +
    'keeps the changes of those lists only, --type those events only; by default every\n' +
    'list and every type. --after SEQ delivers the changes after SEQ (0: from the first\n' +
    'the server keeps); by default the changes from now on. The server refuses a URL of a\n' +
    'private, loopback or link-local address unless WEBHOOK_ALLOWED_HOSTS lists it.\n' +
    'Prints the webhook and its signing secret (whsec_…), shown only this once: keep it\n' +
    "to check each delivery's signature (the client's verifyWebhook).",
  // Not `url`: the global --url (the server's) has that key.
  args: [{ name: 'address', type: 'string', label: '<url>' }],
  flags: {
    list: {
      ...listFlag,
      repeatable: true,
      help: 'Only changes of tasks in list LIST (an id or a name); again for more.',
    },
    type: {
      type: 'choice',
      value: 'TYPE',
      choices: TYPES,
      repeatable: true,
      help: "Only events TYPE: 'task.created', 'task.updated' or 'task.deleted'; again for more.",
    },
    after: {
      type: 'integer',
      value: 'SEQ',
      min: 0,
      help: 'Deliver the changes after seq SEQ (default: from now on).',
    },
    json,
  },
  async run(options, context) {
    const lists =
      options.list === undefined
        ? undefined
        : [...new Set(await resolveLists(options.list, context, 'webhooks create'))]
    const types = options.type === undefined ? undefined : [...new Set(options.type)]
    const created = await context.client.createWebhook(
      { url: options.address, lists, types, after: options.after },
      { signal: context.signal },
    )
    const { stdout } = context
    if (options.json) {
      stdout.write(`${toJson(created, 2)}\n`)
      return 0
    }
    stdout.write(formatWebhooks([created]))
    stdout.write(`\nSecret: ${terminalText(created.secret)}\n`)
    stdout.write(
      'This secret is shown only this once: keep it to verify the deliveries it signs.\n',
    )
    return 0
  },
})

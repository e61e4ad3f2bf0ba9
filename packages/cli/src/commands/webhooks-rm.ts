import { defineCommand } from '../command-line/define-command.js'

/** `tasklane webhooks rm <id>`: deletes a webhook; nothing more is delivered. */
export const webhooksRmCommand = defineCommand({
  name: 'webhooks rm',
  summary: 'Delete a webhook: nothing more is delivered to it.',
  details: 'Prints `Deleted webhook 3.`; exits with status 1 when you have no webhook 3.',
  args: [{ name: 'id', type: 'integer' }],
  flags: {},
  async run(options, context) {
    await context.client.deleteWebhook(options.id, { signal: context.signal })
    context.stdout.write(`Deleted webhook ${options.id}.\n`)
    return 0
  },
})

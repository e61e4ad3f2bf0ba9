import { defineGroup } from '../command-line/define-command.js'
import { webhooksCreateCommand } from './webhooks-create.js'
import { webhooksDeliveriesCommand } from './webhooks-deliveries.js'
import { webhooksLsCommand } from './webhooks-ls.js'
import { webhooksRmCommand } from './webhooks-rm.js'

/** `tasklane webhooks create|ls|rm|deliveries`: changes posted to a URL of yours. */
export const webhooksCommand = defineGroup({
  name: 'webhooks',
  summary: 'Make, list and delete webhooks; see their deliveries.',
  details:
    'A webhook posts each change of a task you can read to a URL of yours, signed with\n' +
    'a secret printed once when it is made. Each belongs to whoever made it.',
  subcommands: [
    webhooksCreateCommand,
    webhooksLsCommand,
    webhooksRmCommand,
    webhooksDeliveriesCommand,
  ],
})

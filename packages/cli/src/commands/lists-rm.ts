import { defineCommand } from '../command-line/define-command.js'
import { listArg, listArgument } from './list-ref.js'
import { listIfMatch } from './shared-flags.js'

/** `tasklane lists rm <list> [--if-match VERSION]`: the list and every task in it. */
export const listsRmCommand = defineCommand({
  name: 'lists rm',
  summary: 'Delete a list and every task in it (its owners and admins).',
  details:
    '<list> is its id or its name. Its tasks are deleted with it, each a `deleted` change\n' +
    'of the feed; nothing asks first. Prints `Deleted list 3.`. With --if-match, only if\n' +
    'the list is still at that version (else exit status 1 and nothing changes).',
  args: [listArg],
  flags: {
    'if-match': listIfMatch,
  },
  async run(options, context) {
    const id = await listArgument(options.list, context, 'lists rm')
    await context.client.deleteList(id, {
      ifMatch: options['if-match'],
      signal: context.signal,
    })
    context.stdout.write(`Deleted list ${id}.\n`)
    return 0
  },
})

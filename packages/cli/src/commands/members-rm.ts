import { defineCommand } from '../command-line/define-command.js'
import { terminalText } from '../format/terminal-text.js'
import { listArg, listArgument } from './list-ref.js'

/** `tasklane members rm <list> <principal>`: takes a principal out of a list. */
export const membersRmCommand = defineCommand({
  name: 'members rm',
  summary: 'Remove a member from a list.',
  details:
    "<list> is its id or its name. Its owners and admins remove anyone but the list's\n" +
    'last owner; any member may remove itself. Prints `Removed bob from list 3.`; exit\n' +
    'status 1 when the principal is no member.',
  args: [listArg, { name: 'principal', type: 'string' }],
  flags: {},
  async run(options, context) {
    const id = await listArgument(options.list, context, 'members rm')
    await context.client.removeMember(id, options.principal, { signal: context.signal })
    context.stdout.write(`Removed ${terminalText(options.principal)} from list ${id}.\n`)
    return 0
  },
})

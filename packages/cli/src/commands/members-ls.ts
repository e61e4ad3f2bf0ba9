import { defineCommand } from '../command-line/define-command.js'
import { formatMembers } from '../format/access-tables.js'
import { toJson } from '../format/json.js'
import { listArg, listArgument } from './list-ref.js'
import { json } from './shared-flags.js'

/** `tasklane members [ls] <list> [--json]`: a list's members and their roles. */
export const membersLsCommand = defineCommand({
  name: 'members ls',
  summary: "List a list's members and their roles (the default of `tasklane members`).",
  details:
    '<list> is its id or its name. One line a member: its principal and its role\n' +
    '(viewer, editor or owner). Anyone who reads the list may see them.',
  args: [listArg],
  flags: { json },
  async run(options, context) {
    const id = await listArgument(options.list, context, 'members ls')
    const members = await context.client.listMembers(id, { signal: context.signal })
    const { stdout } = context
    if (options.json) stdout.write(`${toJson(members, 2)}\n`)
    else if (members.length === 0) stdout.write('No members.\n')
    else stdout.write(formatMembers(members))
    return 0
  },
})

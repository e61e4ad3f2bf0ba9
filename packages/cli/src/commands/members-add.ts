import type { Role } from '@tasklane/client'
import { defineCommand } from '../command-line/define-command.js'
import { formatMembers } from '../format/access-tables.js'
import { toJson } from '../format/json.js'
import { terminalText } from '../format/terminal-text.js'
import { UsageError } from '../usage-error.js'
import { listArg, listArgument } from './list-ref.js'
import { json } from './shared-flags.js'

/** The roles of a list's members, as `--role` takes them. */
const ROLES = ['viewer', 'editor', 'owner'] as const satisfies readonly Role[]

/** `tasklane members add <list> <principal> --role ROLE [--json]`. */
export const membersAddCommand = defineCommand({
  name: 'members add',
  summary: 'Give a principal a role in a list: a new member, or a new role.',
  details:
    '<list> is its id or its name; <principal> who (a user id, ci-bot: what its tokens\n' +
    'or JWTs name). --role is needed: viewer reads the list and its tasks, editor also\n' +
    'changes its tasks, owner also renames and deletes the list and manages its members.\n' +
    'A member already there gets the new role. Only its owners and admins may do it;\n' +
    'demoting the last owner is refused (exit status 1).',
  args: [listArg, { name: 'principal', type: 'string' }],
  flags: {
    role: {
      type: 'choice',
      value: 'ROLE',
      choices: ROLES,
      help: "The role: 'viewer', 'editor' or 'owner'.",
    },
    json,
  },
  async run(options, context) {
    if (options.role === undefined) {
      throw new UsageError("Give --role: 'viewer', 'editor' or 'owner'.", 'members add')
    }
    const id = await listArgument(options.list, context, 'members add')
    const { member, created } = await context.client.putMember(
      id,
      options.principal,
      options.role,
      {
        signal: context.signal,
      },
    )
    const { stdout } = context
    if (options.json) {
      stdout.write(`${toJson(member, 2)}\n`)
      return 0
    }
    stdout.write(formatMembers([member]))
    const who = terminalText(member.principal)
    stdout.write(
      created
        ? `Added ${who} to list ${id} as ${member.role}.\n`
        : `${who} is ${member.role} of list ${id}.\n`,
    )
    return 0
  },
})

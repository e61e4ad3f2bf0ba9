import { defineGroup } from '../command-line/define-command.js'
import { membersAddCommand } from './members-add.js'
import { membersLsCommand } from './members-ls.js'
import { membersRmCommand } from './members-rm.js'

/** `tasklane members [ls] <list>`, `members add|rm`: who has which role in a list. */
export const membersCommand = defineGroup({
  name: 'members',
  summary: "List a list's members; give them roles, remove them.",
  details:
    'A principal (a user or a program, as its token or JWT names it) has a role in each\n' +
    "list it is a member of: viewer, editor or owner. 'tasklane members <list>' lists them.",
  subcommands: [membersLsCommand, membersAddCommand, membersRmCommand],
  defaultSubcommand: membersLsCommand,
})

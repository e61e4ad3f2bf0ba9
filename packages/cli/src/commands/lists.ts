import { defineGroup } from '../command-line/define-command.js'
import { listsCreateCommand } from './lists-create.js'
import { listsLsCommand } from './lists-ls.js'
import { listsRenameCommand } from './lists-rename.js'
import { listsRmCommand } from './lists-rm.js'

/** `tasklane lists [ls|create|rename|rm]`: the lists tasks are in. */
export const listsCommand = defineGroup({
  name: 'lists',
  summary: 'List your lists; create, rename and delete them.',
  details:
    'Every task is in one list; its members (tasklane members) have a role in it. A list\n' +
    "is named by its id or its name ('Groceries'). 'tasklane lists' alone lists them.",
  subcommands: [listsLsCommand, listsCreateCommand, listsRenameCommand, listsRmCommand],
  defaultSubcommand: listsLsCommand,
})

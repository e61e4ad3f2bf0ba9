import { defineCommand } from '../command-line/define-command.js'
import { formatLists } from '../format/access-tables.js'
import { toJson } from '../format/json.js'
import { TASK_NAME } from '../task-text.js'
import { checkText } from './check-text.js'
import { listArg, listArgument } from './list-ref.js'
import { json, listIfMatch } from './shared-flags.js'

/** `tasklane lists rename <list> <name> [--if-match VERSION] [--json]`. */
export const listsRenameCommand = defineCommand({
  name: 'lists rename',
  summary: 'Rename a list (its owners and admins).',
  details:
    '<list> is its id or its current name. Prints the list as it is now, its version one\n' +
    'higher. With --if-match, only if the list is still at that version (see --json):\n' +
    'otherwise nothing changes and the exit status is 1.',
  args: [listArg, { name: 'name', type: 'string' }],
  extraArgumentHint: '(quote a name that has spaces)',
  flags: {
    'if-match': listIfMatch,
    json,
  },
  async run(options, context) {
    checkText(TASK_NAME, options.name, 'lists rename')
    const id = await listArgument(options.list, context, 'lists rename')
    const list = await context.client.updateList(
      id,
      { name: options.name },
      { ifMatch: options['if-match'], signal: context.signal },
    )
    context.stdout.write(options.json ? `${toJson(list, 2)}\n` : formatLists([list]))
    return 0
  },
})

import { defineCommand } from '../command-line/define-command.js'
import { formatLists } from '../format/access-tables.js'
import { toJson } from '../format/json.js'
import { TASK_NAME } from '../task-text.js'
import { checkText } from './check-text.js'
import { json } from './shared-flags.js'

/** `tasklane lists create <name> [--json]`: a new list, whose owner you become. */
export const listsCreateCommand = defineCommand({
  name: 'lists create',
  summary: 'Create a list; you become its owner.',
  details:
    'Prints the new list with its id. A name has 1 to 200 characters, at least one of\n' +
    'them visible; several lists may have one name (then --list takes their ids). A\n' +
    'read-only token, or one limited to some lists, cannot create lists (exit status 1).',
  args: [{ name: 'name', type: 'string' }],
  extraArgumentHint: '(quote a name that has spaces)',
  flags: { json },
  async run(options, context) {
    checkText(TASK_NAME, options.name, 'lists create')
    const list = await context.client.createList({ name: options.name }, { signal: context.signal })
    context.stdout.write(options.json ? `${toJson(list, 2)}\n` : formatLists([list]))
    return 0
  },
})

import { defineCommand } from '../command-line/define-command.js'
import { formatLists } from '../format/access-tables.js'
import { toJson } from '../format/json.js'
import { json } from './shared-flags.js'

/** `tasklane lists [ls] [--json]`: the lists you can read. */
export const listsLsCommand = defineCommand({
  name: 'lists ls',
  summary: 'List the lists you can read, by id (the default of `tasklane lists`).',
  details:
    'One line a list: its id and its name; --json prints whole lists (version, times).\n' +
    'An admin sees every list.',
  args: [],
  flags: { json },
  async run(options, context) {
    const lists = []
    for await (const list of context.client.lists({ signal: context.signal })) lists.push(list)
    const { stdout } = context
    if (options.json) stdout.write(`${toJson(lists, 2)}\n`)
    else if (lists.length === 0) stdout.write('No lists.\n')
    else stdout.write(formatLists(lists))
    return 0
  },
})

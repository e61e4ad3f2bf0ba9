import { defineCommand } from '../command-line/define-command.js'
import { printTasks } from '../format/print.js'
import { after, json, status, tag } from './shared-flags.js'

/** The largest `limit` the server takes (int32). */
const MAX_LIMIT = 2_147_483_647

/** `tasklane list [--limit N] [--tag T] [--status S] [--after ID] [--before ID] [--desc] [--json]` */
export const listCommand = defineCommand({
  name: 'list',
  summary: 'List tasks, oldest first.',
  details:
    'Lists every matching task in id order (creation order), or at most N with --limit:\n' +
    'its id, its status (open or done), its name and its tag; --json prints whole tasks.\n' +
    'Pages: --after the last id shown, or with --desc --before the last id shown.\n' +
    'On a terminal the table fits its width; elsewhere names are printed in full.',
  args: [],
  flags: {
    limit: {
      type: 'integer',
      value: 'N',
      min: 0,
      max: MAX_LIMIT,
      help: `At most N tasks (0 to ${MAX_LIMIT}).`,
    },
    tag,
    status,
    after,
    before: {
      type: 'integer',
      value: 'ID',
      min: 1,
      help: 'Only tasks whose id is less than ID.',
    },
    desc: { type: 'boolean', help: 'Newest first.' },
    json,
  },
  async run(options, context) {
    const tasks = await context.client.listTasks(options.limit, {
      after: options.after,
      before: options.before,
      tag: options.tag,
      status: options.status,
      order: options.desc ? 'desc' : undefined,
      signal: context.signal,
    })
    printTasks(context.stdout, tasks, options.json === true)
    return 0
  },
})

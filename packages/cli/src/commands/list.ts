import { defineCommand } from '../command-line/define-command.js'
import { write } from '../context.js'
import { printTasks } from '../format/print.js'
import { UsageError } from '../usage-error.js'
import { after, json, status, tag } from './shared-flags.js'

/** The largest `limit` the server takes (int32). */
const MAX_LIMIT = 2_147_483_647
/** Tasks listed when neither --limit nor --all says otherwise: a screenful, as gh lists. */
export const DEFAULT_LIMIT = 30

/**
 * `tasklane list [--limit N | --all] [--tag T] [--status S] [--after ID] [--before ID]
 * [--desc] [--json]`: at most 30 tasks unless told otherwise, with a hint on stderr when
 * more exist.
 */
export const listCommand = defineCommand({
  name: 'list',
  summary: 'List tasks, oldest first.',
  details:
    `Lists the first ${DEFAULT_LIMIT} matching tasks in id order (creation order), N with\n` +
    '--limit, every one with --all: its id, its status (open or done), its name and its\n' +
    `tag; --json prints whole tasks. When more than ${DEFAULT_LIMIT} match and neither\n` +
    'is given, stderr says so. Pages: --after the last id shown, or with --desc --before\n' +
    'the last id shown. For every task as NDJSON, streamed, see `tasklane export`.\n' +
    'On a terminal the table fits its width; elsewhere names are printed in full.',
  args: [],
  flags: {
    limit: {
      type: 'integer',
      value: 'N',
      min: 0,
      max: MAX_LIMIT,
      short: ['L'],
      help: `At most N tasks (0 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}).`,
    },
    all: { type: 'boolean', short: ['a'], help: 'Every matching task, however many.' },
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
    if (options.all && options.limit !== undefined) {
      throw new UsageError("'--all' and '--limit' cannot be given together.", 'list')
    }
    // One more than shown, by default: whether it came says whether more exist.
    const limit = options.all ? undefined : (options.limit ?? DEFAULT_LIMIT + 1)
    const listed = await context.client.listTasks(limit, {
      after: options.after,
      before: options.before,
      tag: options.tag,
      status: options.status,
      order: options.desc ? 'desc' : undefined,
      signal: context.signal,
    })
    const paged = !options.all && options.limit === undefined
    const tasks = paged ? listed.slice(0, DEFAULT_LIMIT) : listed
    printTasks(context.stdout, tasks, options.json === true)
    const last = tasks.at(-1)
    if (paged && listed.length > DEFAULT_LIMIT && last !== undefined) {
      const next = `${options.desc ? '--before' : '--after'} ${last.id}`
      await write(
        context.stderr,
        `Showing ${DEFAULT_LIMIT} of more tasks: use --limit N or --all to see more, or ${next} for the next page.\n`,
      )
    }
    return 0
  },
})

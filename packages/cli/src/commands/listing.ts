import type { TaskSort } from '@tasklane/client'
import type { FlagsSpec, FlagValues } from '../command-line/spec.js'
import { type Context, write } from '../context.js'
import { printTasks } from '../format/print.js'
import { UsageError } from '../usage-error.js'
import { listFlag, resolveList } from './list-ref.js'
import { priority, priorityValue } from './planning-flags.js'
import { after, json, status, tag } from './shared-flags.js'

/** The largest `limit` the server takes (int32). */
const MAX_LIMIT = 2_147_483_647
/** Tasks listed when neither --limit nor --all says otherwise: a screenful, as gh lists. */
export const DEFAULT_LIMIT = 30

/** The sorts of GET /tasks, as `--sort` takes them. */
const SORTS = ['id', 'due', 'priority', 'position', 'updated'] as const satisfies TaskSort[]

/** The options of the commands that list tasks: `list` and `search`. */
export const LISTING_FLAGS = {
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
  list: { ...listFlag, help: "Only tasks of list LIST: its id or its name ('Groceries')." },
  priority: {
    ...priority,
    help: "Only tasks of this priority: 'none', 'low', 'medium', 'high' or 0-3.",
  },
  'due-from': {
    type: 'string',
    value: 'DAY',
    help: 'Only tasks due on DAY (2026-12-01) or later.',
  },
  'due-to': { type: 'string', value: 'DAY', help: 'Only tasks due on DAY or earlier.' },
  overdue: { type: 'boolean', help: 'Only open tasks due before now.' },
  tz: {
    type: 'string',
    value: 'ZONE',
    help: 'The time zone of --due-from, --due-to and --overdue (Europe/Paris; default UTC).',
  },
  sort: {
    type: 'choice',
    value: 'FIELD',
    choices: SORTS,
    help: "Sort by 'id' (the default), 'due', 'priority', 'position' or 'updated'.",
  },
  order: {
    type: 'choice',
    value: 'ORDER',
    choices: ['asc', 'desc'],
    help: "'asc' (the default) or 'desc': the sort reversed.",
  },
  desc: { type: 'boolean', help: 'Newest first (--order desc).' },
  after,
  before: {
    type: 'integer',
    value: 'ID',
    min: 1,
    help: 'Only tasks whose id is less than ID.',
  },
  json,
} as const satisfies FlagsSpec

/** The values of the listing options given. */
export type ListingOptions = FlagValues<typeof LISTING_FLAGS>

/**
 * Lists the tasks the options (and `q`, words to search for) select and prints them: at
 * most 30 unless told otherwise, with a hint on stderr when more exist.
 */
export async function runListing(
  options: ListingOptions,
  context: Context,
  { command, q }: { command: string; q?: string },
): Promise<number> {
  if (options.all && options.limit !== undefined) {
    throw new UsageError("'--all' and '--limit' cannot be given together.", command)
  }
  if (options.desc && options.order === 'asc') {
    throw new UsageError("'--desc' and '--order asc' cannot be given together.", command)
  }
  const order = options.desc ? 'desc' : options.order
  // One more than shown, by default: whether it came says whether more exist.
  const limit = options.all ? undefined : (options.limit ?? DEFAULT_LIMIT + 1)
  const list = await resolveList(options.list, context, command)
  const listed = await context.client.listTasks(limit, {
    after: options.after,
    before: options.before,
    tag: options.tag,
    status: options.status,
    list,
    order,
    sort: options.sort,
    priority: priorityValue(options.priority),
    dueFrom: options['due-from'],
    dueTo: options['due-to'],
    tz: options.tz,
    overdue: options.overdue,
    q,
    signal: context.signal,
  })
  const paged = !options.all && options.limit === undefined
  const tasks = paged ? listed.slice(0, DEFAULT_LIMIT) : listed
  printTasks(context.stdout, tasks, options.json === true)
  const last = tasks.at(-1)
  if (paged && listed.length > DEFAULT_LIMIT && last !== undefined) {
    // --after and --before page by id: in another sort, only --limit and --all show more.
    const byId = options.sort === undefined || options.sort === 'id'
    const next = `, or ${order === 'desc' ? '--before' : '--after'} ${last.id} for the next page`
    await write(
      context.stderr,
      `Showing ${DEFAULT_LIMIT} of more tasks: use --limit N or --all to see more${byId ? next : ''}.\n`,
    )
  }
  return 0
}

import { defineCommand } from '../command-line/define-command.js'
import { DEFAULT_LIMIT, LISTING_FLAGS, runListing } from './listing.js'

const { json, ...filters } = LISTING_FLAGS

/**
 * `tasklane list [--limit N | --all] [--tag T] [--status S] [--priority P] [--due-from DAY]
 * [--due-to DAY] [--overdue] [--tz ZONE] [--sort FIELD] [--order ORDER] [--desc] [--after ID]
 * [--before ID] [--q WORDS] [--json]`: at most 30 tasks unless told otherwise, with a hint
 * on stderr when more exist.
 */
export const listCommand = defineCommand({
  name: 'list',
  summary: 'List tasks, oldest first, or sorted and filtered.',
  details:
    `Lists the first ${DEFAULT_LIMIT} matching tasks in id order (creation order), N with\n` +
    '--limit, every one with --all: its id, status, priority, due date, name and tag;\n' +
    `--json prints whole tasks. When more than ${DEFAULT_LIMIT} match and neither is given,\n` +
    'stderr says so. --sort due (undated tasks last), priority, position (the order\n' +
    "'tasklane move' sets) or updated; --order desc reverses it. Filters combine:\n" +
    '--due-from and --due-to take days, counted in --tz; --q takes words that must each\n' +
    "begin a word of the name or notes (see 'tasklane search'). Pages in id order:\n" +
    '--after the last id shown, or with --desc --before the last id shown. For every\n' +
    "task as NDJSON, streamed, see 'tasklane export'.\n" +
    'On a terminal the table fits its width; elsewhere names are printed in full.',
  args: [],
  flags: {
    ...filters,
    q: {
      type: 'string',
      value: 'WORDS',
      short: ['q'],
      help: 'Only tasks whose name or notes have words starting with each of WORDS.',
    },
    json,
  },
  run: (options, context) => runListing(options, context, { command: 'list', q: options.q }),
})

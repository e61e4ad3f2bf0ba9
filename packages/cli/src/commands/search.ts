import { defineCommand } from '../command-line/define-command.js'
import { LISTING_FLAGS, runListing } from './listing.js'

/** `tasklane search <words>… [the options of list]`: `tasklane list --q "<words>"`. */
export const searchCommand = defineCommand({
  name: 'search',
  summary: 'List the tasks whose name or notes hold these words.',
  details:
    'Each word must begin a word of the task’s name or notes, case and accents ignored:\n' +
    '\'tasklane search release not\' finds "Release notes". Takes the options of\n' +
    "'tasklane list': --sort, --status, --limit and the others.",
  args: [{ name: 'words', type: 'string', label: '<word>', variadic: true }],
  flags: LISTING_FLAGS,
  run: (options, context) =>
    runListing(options, context, { command: 'search', q: options.words.join(' ') }),
})

import { defineCommand } from '../command-line/define-command.js'
import { printChanged } from '../format/print.js'
import { changeEach, exitStatus } from './change-each.js'
import { ifMatch, json } from './shared-flags.js'

/** `tasklane reopen <id>… [--if-match VERSION] [--json]`: opens done tasks again. */
export const reopenCommand = defineCommand({
  name: 'reopen',
  summary: 'Open done tasks again.',
  details:
    'Marks each task open in turn and prints them as they are now (an open task stays as\n' +
    'it was). When the server refuses one (no such task), its message goes to stderr,\n' +
    'the others go on, and the exit status is 1.',
  args: [{ name: 'ids', type: 'integer', label: '<id>', variadic: true }],
  flags: { 'if-match': ifMatch, json },
  async run(options, context) {
    const request = { command: 'reopen', ids: options.ids, ifMatch: options['if-match'] }
    const outcome = await changeEach(request, context, (id, call) =>
      context.client.reopenTask(id, call),
    )
    printChanged(context.stdout, outcome.results, options.json === true)
    return exitStatus(outcome)
  },
})

import { defineCommand } from '../command-line/define-command.js'
import { printChanged } from '../format/print.js'
import { changeEach, exitStatus } from './change-each.js'
import { ifMatch, json } from './shared-flags.js'

/** `tasklane done <id>… [--if-match VERSION] [--json]`: marks tasks done, one at a time. */
export const doneCommand = defineCommand({
  name: 'done',
  summary: 'Mark tasks done.',
  details:
    'Marks each task done in turn and prints them as they are now (a task done already\n' +
    'stays as it was). When the server refuses one (no such task), its message goes to\n' +
    'stderr, the others go on, and the exit status is 1.',
  args: [{ name: 'ids', type: 'integer', label: '<id>', variadic: true }],
  flags: { 'if-match': ifMatch, json },
  async run(options, context) {
    const request = { command: 'done', ids: options.ids, ifMatch: options['if-match'] }
    const outcome = await changeEach(request, context, (id, call) =>
      context.client.completeTask(id, call),
    )
    printChanged(context.stdout, outcome.results, options.json === true)
    return exitStatus(outcome)
  },
})

import { defineCommand } from '../command-line/define-command.js'
import { write } from '../context.js'
import { changeEach, exitStatus } from './change-each.js'
import { ifMatch } from './shared-flags.js'

/** `tasklane rm <id>… [--if-match VERSION]`: deletes tasks for good, one at a time. */
export const rmCommand = defineCommand({
  name: 'rm',
  summary: 'Delete tasks for good.',
  details:
    'Deletes each task in turn and prints `Deleted task 42.` for each. A deleted task\n' +
    'leaves every listing and its id is never used again. When the server refuses one\n' +
    '(no such task, or deleted already), its message goes to stderr, the others go on,\n' +
    'and the exit status is 1.',
  args: [{ name: 'ids', type: 'integer', label: '<id>', variadic: true }],
  flags: { 'if-match': ifMatch },
  async run(options, context) {
    const request = { command: 'rm', ids: options.ids, ifMatch: options['if-match'] }
    const outcome = await changeEach(request, context, async (id, call) => {
      await context.client.deleteTask(id, call)
      await write(context.stdout, `Deleted task ${id}.\n`)
    })
    return exitStatus(outcome)
  },
})

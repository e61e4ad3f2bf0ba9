import { defineCommand } from '../command-line/define-command.js'
import { printTasks } from '../format/print.js'
import { json } from './shared-flags.js'

/** `tasklane get <id> [--json]`: prints one task. */
export const getCommand = defineCommand({
  name: 'get',
  summary: 'Print one task.',
  details: 'Exits with status 1 and the server’s message when no task has this id.',
  args: [{ name: 'id', type: 'integer', min: 1 }],
  flags: { json },
  async run({ id, json }, context) {
    const task = await context.client.getTask(id, { signal: context.signal })
    printTasks(context.stdout, task, json === true)
    return 0
  },
})

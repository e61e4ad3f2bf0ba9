import { defineCommand } from '../command-line/define-command.js'
import { printTasks } from '../format/print.js'
import { json } from './shared-flags.js'

/** `tasklane add <name> [--tag T] [--json]`: creates the task and prints it. */
export const addCommand = defineCommand({
  name: 'add',
  summary: 'Create a task and print it.',
  details:
    'Prints the new task with the id the server gave it. The server checks the name and\n' +
    'the tag; its message is printed when it refuses them.',
  args: [{ name: 'name', type: 'string' }],
  extraArgumentHint: '(quote a name that has spaces)',
  flags: {
    tag: { type: 'string', value: 'T', help: 'Give the task this tag.' },
    json,
  },
  async run({ name, tag, json }, context) {
    const task = tag === undefined ? { name } : { name, tag }
    const created = await context.client.createTask(task, { signal: context.signal })
    printTasks(context.stdout, created, json === true)
    return 0
  },
})

import { defineCommand } from '../command-line/define-command.js'
import { printTasks } from '../format/print.js'
import { TASK_NAME, TASK_TAG } from '../task-text.js'
import { checkText } from './check-text.js'
import { json } from './shared-flags.js'

/** `tasklane add <name> [--tag T] [--json]`: creates the task and prints it. */
export const addCommand = defineCommand({
  name: 'add',
  summary: 'Create a task and print it.',
  details:
    'Prints the new task with the id the server gave it. A name has 1 to 200 characters,\n' +
    'a tag 1 to 64, each at least one of them visible: anything else is refused before\n' +
    'any request, with exit status 2.',
  args: [{ name: 'name', type: 'string' }],
  extraArgumentHint: '(quote a name that has spaces)',
  flags: {
    tag: { type: 'string', value: 'T', short: ['t'], help: 'Give the task this tag.' },
    json,
  },
  async run({ name, tag, json }, context) {
    checkText(TASK_NAME, name, 'add')
    checkText(TASK_TAG, tag, 'add')
    const task = tag === undefined ? { name } : { name, tag }
    const created = await context.client.createTask(task, { signal: context.signal })
    printTasks(context.stdout, created, json === true)
    return 0
  },
})

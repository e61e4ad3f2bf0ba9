import type { NewTask } from '@tasklane/client'
import { defineCommand } from '../command-line/define-command.js'
import { printTasks } from '../format/print.js'
import { TASK_NAME, TASK_NOTES, TASK_TAG } from '../task-text.js'
import { checkText } from './check-text.js'
import { listFlag, resolveList } from './list-ref.js'
import { due, notes, priority, priorityValue } from './planning-flags.js'
import { json } from './shared-flags.js'

/**
 * `tasklane add <name> [--tag T] [--notes TEXT] [--due DATE] [--priority P] [--list LIST]
 * [--json]`: creates the task and prints it.
 */
export const addCommand = defineCommand({
  name: 'add',
  summary: 'Create a task and print it.',
  details:
    'Prints the new task with the id the server gave it. A name has 1 to 200 characters,\n' +
    'a tag 1 to 64 and notes 1 to 10,000, each at least one of them visible: anything\n' +
    'else is refused before any request, with exit status 2. A due date the server\n' +
    'refuses (2026-02-30, a moment without its offset) is an error, exit status 1.\n' +
    '--list puts it in that list (an id or a name); without it, the server puts it in\n' +
    'the lowest-id list you may edit.',
  args: [{ name: 'name', type: 'string' }],
  extraArgumentHint: '(quote a name that has spaces)',
  flags: {
    tag: { type: 'string', value: 'T', short: ['t'], help: 'Give the task this tag.' },
    notes,
    due,
    priority,
    list: { ...listFlag, help: "In list LIST: its id or its name ('Groceries')." },
    json,
  },
  async run(options, context) {
    checkText(TASK_NAME, options.name, 'add')
    checkText(TASK_TAG, options.tag, 'add')
    checkText(TASK_NOTES, options.notes, 'add')
    const task: NewTask = { name: options.name }
    if (options.tag !== undefined) task.tag = options.tag
    if (options.notes !== undefined) task.notes = options.notes
    if (options.due !== undefined) task.due = options.due
    const level = priorityValue(options.priority)
    if (level !== undefined) task.priority = level
    const listId = await resolveList(options.list, context, 'add')
    if (listId !== undefined) task.listId = listId
    const created = await context.client.createTask(task, { signal: context.signal })
    printTasks(context.stdout, created, options.json === true)
    return 0
  },
})

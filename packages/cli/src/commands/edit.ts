import type { TaskPatch } from '@tasklane/client'
import { defineCommand } from '../command-line/define-command.js'
import { printTasks } from '../format/print.js'
import { TASK_NAME, TASK_NOTES, TASK_TAG } from '../task-text.js'
import { UsageError } from '../usage-error.js'
import { checkText } from './check-text.js'
import { due, notes, priority, priorityValue } from './planning-flags.js'
import { ifMatch, json } from './shared-flags.js'

/**
 * `tasklane edit <id> [--name N] [--tag T | --no-tag] [--notes TEXT | --no-notes]
 * [--due DATE | --no-due] [--priority P] [--if-match VERSION] [--json]`
 */
export const editCommand = defineCommand({
  name: 'edit',
  summary: 'Change a task: its name, tag, notes, due date or priority.',
  details:
    'Changes what the options say and prints the task as it is now. At least one of\n' +
    'them; --no-tag, --no-notes and --no-due remove what they name. A name the server\n' +
    'would refuse (blank, over 200 characters), such a tag (over 64) or such notes (over\n' +
    '10,000) is refused before any request, with exit status 2.',
  args: [{ name: 'id', type: 'integer' }],
  flags: {
    name: { type: 'string', value: 'N', help: 'Rename it to N.' },
    tag: {
      type: 'string',
      value: 'T',
      short: ['t'],
      help: 'Tag it T.',
      negation: 'Remove its tag.',
    },
    notes: { ...notes, negation: 'Remove its notes.' },
    due: { ...due, negation: 'Remove its due date.' },
    priority,
    'if-match': ifMatch,
    json,
  },
  async run(options, context) {
    checkText(TASK_NAME, options.name, 'edit')
    checkText(TASK_TAG, options.tag === false ? undefined : options.tag, 'edit')
    checkText(TASK_NOTES, options.notes === false ? undefined : options.notes, 'edit')
    const patch: TaskPatch = {}
    if (options.name !== undefined) patch.name = options.name
    if (options.tag !== undefined) patch.tag = options.tag === false ? null : options.tag
    if (options.notes !== undefined) patch.notes = options.notes === false ? null : options.notes
    if (options.due !== undefined) patch.due = options.due === false ? null : options.due
    const level = priorityValue(options.priority)
    if (level !== undefined) patch.priority = level
    if (Object.keys(patch).length === 0) {
      throw new UsageError(
        'Nothing to change: give --name, --tag, --no-tag, --notes, --no-notes, --due, --no-due or --priority.',
        'edit',
      )
    }
    const task = await context.client.updateTask(options.id, patch, {
      ifMatch: options['if-match'],
      signal: context.signal,
    })
    printTasks(context.stdout, task, options.json === true)
    return 0
  },
})

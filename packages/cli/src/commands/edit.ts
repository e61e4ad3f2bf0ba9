import type { TaskPatch } from '@tasklane/client'
import { defineCommand } from '../command-line/define-command.js'
import { printTasks } from '../format/print.js'
import { TASK_NAME, TASK_TAG } from '../task-text.js'
import { UsageError } from '../usage-error.js'
import { checkText } from './check-text.js'
import { ifMatch, json } from './shared-flags.js'

/** `tasklane edit <id> [--name N] [--tag T | --no-tag] [--if-match VERSION] [--json]` */
export const editCommand = defineCommand({
  name: 'edit',
  summary: 'Rename a task, or change or remove its tag.',
  details:
    'Changes what the options say and prints the task as it is now. At least one of\n' +
    '--name, --tag and --no-tag. A name the server would refuse (blank, over 200\n' +
    'characters) or such a tag (over 64) is refused before any request, with exit status 2.',
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
    'if-match': ifMatch,
    json,
  },
  async run(options, context) {
    checkText(TASK_NAME, options.name, 'edit')
    checkText(TASK_TAG, options.tag === false ? undefined : options.tag, 'edit')
    const patch: TaskPatch = {}
    if (options.name !== undefined) patch.name = options.name
    if (options.tag !== undefined) patch.tag = options.tag === false ? null : options.tag
    if (Object.keys(patch).length === 0) {
      throw new UsageError('Nothing to change: give --name, --tag or --no-tag.', 'edit')
    }
    const task = await context.client.updateTask(options.id, patch, {
      ifMatch: options['if-match'],
      signal: context.signal,
    })
    printTasks(context.stdout, task, options.json === true)
    return 0
  },
})

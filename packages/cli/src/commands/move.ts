import type { MoveTarget } from '@tasklane/client'
import { defineCommand } from '../command-line/define-command.js'
import { printTasks } from '../format/print.js'
import { UsageError } from '../usage-error.js'
import { listFlag, resolveList } from './list-ref.js'
import { ifMatch, json } from './shared-flags.js'

/**
 * `tasklane move <id> (--before ID | --after ID | --top | --bottom) [--list LIST]
 * [--if-match VERSION] [--json]`: moves a task in its list's manual order.
 */
export const moveCommand = defineCommand({
  name: 'move',
  summary: "Move a task in its list's order, or into another list.",
  details:
    'Puts the task just before or after another task of its list, or first or last in\n' +
    'it, and prints it as it is now: exactly one of --before, --after, --top and\n' +
    '--bottom. With --list (an id, or a name), the task moves into that list too (a task\n' +
    "named by --before or --after must be in it). 'tasklane list --sort position' shows\n" +
    'the order.',
  args: [{ name: 'id', type: 'integer' }],
  flags: {
    before: { type: 'integer', value: 'ID', min: 1, help: 'Just before task ID.' },
    after: { type: 'integer', value: 'ID', min: 1, help: 'Just after task ID.' },
    top: { type: 'boolean', help: 'First in its list.' },
    bottom: { type: 'boolean', help: 'Last in its list.' },
    list: { ...listFlag, help: "Into list LIST: its id or its name ('Groceries')." },
    'if-match': ifMatch,
    json,
  },
  async run(options, context) {
    // Where the options say the task goes, each with the option that says it: one only.
    const places: [MoveTarget, string][] = []
    if (options.before !== undefined) places.push([{ before: options.before }, '--before'])
    if (options.after !== undefined) places.push([{ after: options.after }, '--after'])
    if (options.top) places.push(['top', '--top'])
    if (options.bottom) places.push(['bottom', '--bottom'])
    const [place, other] = places
    if (place === undefined) {
      throw new UsageError('Say where: give --before ID, --after ID, --top or --bottom.', 'move')
    }
    if (other !== undefined) {
      throw new UsageError(`'${place[1]}' and '${other[1]}' cannot be given together.`, 'move')
    }
    const task = await context.client.moveTask(options.id, place[0], {
      listId: await resolveList(options.list, context, 'move'),
      ifMatch: options['if-match'],
      signal: context.signal,
    })
    printTasks(context.stdout, task, options.json === true)
    return 0
  },
})

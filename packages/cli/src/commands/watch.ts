import { defineCommand } from '../command-line/define-command.js'
import { write } from '../context.js'
import { formatEvent } from '../format/event-line.js'
import { toJson } from '../format/json.js'
import { listFlag, resolveList } from './list-ref.js'
import { status, tag } from './shared-flags.js'

/**
 * `tasklane watch [--tag T] [--status S] [--list LIST] [--after SEQ] [--json]`: one line per change
 * (created, updated, deleted) as it is committed, or one JSON event per line with --json,
 * until SIGINT or SIGTERM, which end it with status 0.
 */
export const watchCommand = defineCommand({
  name: 'watch',
  summary: 'Print each change to tasks as it happens, until Ctrl-C.',
  details:
    'Follows the change feed: one line per change, in the order the server committed\n' +
    'them, such as `created  42  open  Write docs  [docs]`, then\n' +
    '`updated  42  done  Write docs  [docs]` and `deleted  42`. With --json, one JSON\n' +
    'event per line: {"type": ..., "seq": ..., "task": ...}. Reconnects by itself after a\n' +
    'dropped connection and resumes where it stopped.\n' +
    'With --tag, --status or --list the view stays exact: a task that stops matching\n' +
    '(marked done, retagged, moved out of the list) comes as deleted, one that starts\n' +
    'matching as created.\n' +
    'Each change has a seq, a number that orders every change (shown with --json).\n' +
    'Without --after only new changes are printed; with --after SEQ, first each task\n' +
    'changed since that seq, once, as it is now. Ctrl-C or SIGTERM ends it with status 0.',
  args: [],
  flags: {
    tag,
    status,
    list: { ...listFlag, help: "Only tasks of list LIST: its id or its name ('Groceries')." },
    after: {
      type: 'integer',
      value: 'SEQ',
      min: 0,
      help: 'Start after change SEQ (a seq, not a task id); 0: every task.',
    },
    json: { type: 'boolean', help: 'Print one JSON event per line.' },
  },
  async run({ tag, status, list: ref, after, json }, context) {
    const list = await resolveList(ref, context, 'watch')
    const events = context.client.watch({ after, tag, status, list, signal: context.signal })
    for await (const event of events) {
      await write(context.stdout, json ? `${toJson(event)}\n` : formatEvent(event))
    }
    return 0
  },
})

import type { HistoryEntry } from '@tasklane/client'
import { defineCommand } from '../command-line/define-command.js'
import { formatHistory } from '../format/history-table.js'
import { toJson } from '../format/json.js'
import { json } from './shared-flags.js'

/** `tasklane history <id> [--limit N] [--json]`: who changed a task, when, and what. */
export const historyCommand = defineCommand({
  name: 'history',
  summary: 'Print who changed a task, when, and what, newest first.',
  details:
    'One line for each create, change, move and delete of the task, newest first: its\n' +
    'seq (the change feed numbers it the same), when, who, what kind of change, and each\n' +
    'field it set with its value before and after (none: it had none). Also for a deleted\n' +
    'task. The server keeps them for HISTORY_RETENTION_DAYS (30 by default). --json prints\n' +
    'the entries as the API gives them.',
  args: [{ name: 'id', type: 'integer' }],
  flags: {
    limit: {
      type: 'integer',
      value: 'N',
      min: 1,
      max: 2_147_483_647,
      short: ['L'],
      help: 'Only the N newest entries (default: every one).',
    },
    json,
  },
  async run(options, context) {
    const entries: HistoryEntry[] = []
    // Pages no larger than asked for (or the client's default, 100, for every entry).
    const pageSize = options.limit === undefined ? undefined : Math.min(options.limit, 1000)
    const walk = context.client.history(options.id, { pageSize, signal: context.signal })
    for await (const entry of walk) {
      entries.push(entry)
      if (entries.length === options.limit) break
    }
    const { stdout } = context
    if (options.json) stdout.write(`${toJson(entries, 2)}\n`)
    else if (entries.length === 0) stdout.write('No history.\n')
    else stdout.write(formatHistory(entries, stdout.isTTY ? stdout.columns : undefined))
    return 0
  },
})

import { defineCommand } from '../command-line/define-command.js'
import { write } from '../context.js'
import { toJson } from '../format/json.js'
import { startProgress } from '../progress.js'
import { listFlag, resolveList } from './list-ref.js'
import { status, tag } from './shared-flags.js'

/** Lines are written in chunks of about this many characters: one write per chunk. */
const CHUNK = 64 * 1024

/**
 * `tasklane export [--tag T] [--status S] [--list LIST]`: every task as NDJSON on stdout, streamed through the
 * client's export iterator; a progress line on stderr when it is a terminal.
 */
export const exportCommand = defineCommand({
  name: 'export',
  summary: 'Print every task as NDJSON (one JSON task per line).',
  details:
    'Streams whole tasks (id, name, tag, status, version, createdAt, updatedAt) in id\n' +
    'order. `tasklane import` reads them back as new tasks with their name, tag and\n' +
    'status, from a file or a pipe (`tasklane export | tasklane import -`). Progress goes\n' +
    'to stderr when stderr is a terminal and stdout is not.',
  args: [],
  flags: {
    tag,
    status,
    list: { ...listFlag, help: "Only tasks of list LIST: its id or its name ('Groceries')." },
  },
  async run({ tag, status, list: ref }, context) {
    const list = await resolveList(ref, context, 'export')
    // When the tasks go to the terminal, they show the progress themselves; a progress line
    // drawn there too would run into them and erase the line it shares with one.
    const progress = context.stdout.isTTY ? undefined : startProgress(context.stderr, 'Exported')
    let chunk = ''
    try {
      for await (const task of context.client.exportTasks({
        tag,
        status,
        list,
        signal: context.signal,
      })) {
        chunk += `${toJson(task)}\n`
        progress?.tick()
        if (chunk.length >= CHUNK) {
          await write(context.stdout, chunk)
          chunk = ''
        }
      }
    } finally {
      // What was received is written, also when the export fails or is interrupted.
      if (chunk !== '') await write(context.stdout, chunk)
      progress?.done()
    }
    return 0
  },
})

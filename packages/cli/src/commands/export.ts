import { type Context, write } from '../context.js'
import { startProgress } from '../progress.js'

/** Lines are written in chunks of about this many characters: one write per chunk. */
const CHUNK = 64 * 1024

/**
 * `tasklane export [--tag T]`: every task as NDJSON on stdout, streamed through the
 * client's export iterator; a progress line on stderr when it is a terminal.
 */
export async function exportTasks(
  context: Context,
  _args: readonly string[],
  options: { tag?: string },
): Promise<number> {
  const progress = startProgress(context.stderr, 'Exported')
  let chunk = ''
  try {
    for await (const task of context.client.exportTasks({
      tag: options.tag,
      signal: context.signal,
    })) {
      chunk += `${JSON.stringify(task)}\n`
      progress.tick()
      if (chunk.length >= CHUNK) {
        await write(context.stdout, chunk)
        chunk = ''
      }
    }
  } finally {
    // What was received is written, also when the export fails or is interrupted.
    if (chunk !== '') await write(context.stdout, chunk)
    progress.done()
  }
  return 0
}

import { integerArgument } from '../command-line.js'
import { type Context, write } from '../context.js'
import { formatLine } from '../format/table.js'

/**
 * `tasklane watch [--tag T] [--after ID] [--json]`: one line per task as it is created
 * (NDJSON with --json), until SIGINT or SIGTERM, which end it with status 0.
 */
export async function watch(
  context: Context,
  _args: readonly string[],
  options: { tag?: string; after?: string; json?: boolean },
): Promise<number> {
  const after =
    options.after === undefined ? undefined : integerArgument(options.after, '--after', 'watch', 0)
  const tasks = context.client.watch({ after, tag: options.tag, signal: context.signal })
  for await (const task of tasks) {
    await write(context.stdout, options.json ? `${JSON.stringify(task)}\n` : formatLine(task))
  }
  return 0
}

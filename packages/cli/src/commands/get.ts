import { integerArgument } from '../command-line.js'
import type { Context } from '../context.js'
import { printTasks } from '../format/print.js'

/** `tasklane get <id> [--json]`: prints one task. */
export async function get(
  context: Context,
  [id]: readonly string[],
  options: { json?: boolean },
): Promise<number> {
  const task = await context.client.getTask(integerArgument(id ?? '', '<id>', 'get', 1), {
    signal: context.signal,
  })
  printTasks(context.stdout, task, options.json === true)
  return 0
}

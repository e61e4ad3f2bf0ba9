import type { NewTask } from '@tasklane/client'
import type { Context } from '../context.js'
import { printTasks } from '../format/print.js'

/** `tasklane add <name> [--tag T] [--json]`: creates the task and prints it. */
export async function add(
  context: Context,
  [name]: readonly string[],
  options: { tag?: string; json?: boolean },
): Promise<number> {
  const task: NewTask =
    options.tag === undefined ? { name: name ?? '' } : { name: name ?? '', tag: options.tag }
  const created = await context.client.createTask(task, { signal: context.signal })
  printTasks(context.stdout, created, options.json === true)
  return 0
}

import { integerArgument } from '../command-line.js'
import type { Context } from '../context.js'
import { printTasks } from '../format/print.js'

/** The largest `limit` the server takes (int32). */
const MAX_LIMIT = 2_147_483_647

/** `tasklane list [--limit N] [--tag T] [--after ID] [--desc] [--json]` */
export async function list(
  context: Context,
  _args: readonly string[],
  options: { limit?: string; tag?: string; after?: string; desc?: boolean; json?: boolean },
): Promise<number> {
  const limit =
    options.limit === undefined
      ? undefined
      : integerArgument(options.limit, '--limit', 'list', 0, MAX_LIMIT)
  const after =
    options.after === undefined ? undefined : integerArgument(options.after, '--after', 'list', 0)
  const tasks = await context.client.listTasks(limit, {
    after,
    tag: options.tag,
    order: options.desc ? 'desc' : undefined,
    signal: context.signal,
  })
  printTasks(context.stdout, tasks, options.json === true)
  return 0
}

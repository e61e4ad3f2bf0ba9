import type { Task } from '@tasklane/client'
import type { Output } from '../context.js'
import { formatTable } from './table.js'

/**
 * Tasks on stdout: a JSON array (or one JSON object for a single task) with `--json`, else
 * a table, fitted to the terminal's width when stdout is one.
 */
export function printTasks(stdout: Output, tasks: readonly Task[] | Task, json: boolean): void {
  if (json) {
    stdout.write(`${JSON.stringify(tasks, null, 2)}\n`)
    return
  }
  const list = Array.isArray(tasks) ? tasks : [tasks as Task]
  if (list.length === 0) {
    stdout.write('No tasks.\n')
    return
  }
  stdout.write(formatTable(list, stdout.isTTY ? stdout.columns : undefined))
}

import type { Task } from '@tasklane/client'
import type { Output } from '../context.js'
import { toJson } from './json.js'
import { formatTable } from './table.js'

/**
 * Tasks on stdout: a JSON array (or one JSON object for a single task) with `--json`, else
 * a table, fitted to the terminal's width when stdout is one.
 */
export function printTasks(stdout: Output, tasks: readonly Task[] | Task, json: boolean): void {
  if (json) {
    stdout.write(`${toJson(tasks, 2)}\n`)
    return
  }
  const list = Array.isArray(tasks) ? tasks : [tasks as Task]
  if (list.length === 0) {
    stdout.write('No tasks.\n')
    return
  }
  stdout.write(formatTable(list, stdout.isTTY ? stdout.columns : undefined))
}

/**
 * The tasks a change command changed: a JSON array with `json` (empty when none was), else
 * a table of them, or nothing when none was (each failure went to stderr).
 */
export function printChanged(stdout: Output, tasks: readonly Task[], json: boolean): void {
  if (json || tasks.length > 0) printTasks(stdout, tasks, json)
}

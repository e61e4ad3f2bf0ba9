import type { TaskEvent } from '@tasklane/client'
import { terminalText } from './terminal-text.js'

/**
 * One change as a line of `tasklane watch`: `created  42  open  Write docs  [docs]`,
 * `updated  42  done  Write docs  [docs]`, `deleted  42` (a deleted task is only its id).
 */
export function formatEvent(event: TaskEvent): string {
  // The caller's lists changed: the watch lists again and goes on.
  if (event.type === 'reset') return `reset  ${terminalText(event.seq)}\n`
  const { type, task } = event
  // Every field as the server sent it, escaped: the id of a deleted task too.
  const id = terminalText(task.id)
  if (type === 'deleted') return `${type}  ${id}\n`
  const tag = task.tag === undefined ? '' : `  [${terminalText(task.tag)}]`
  return `${terminalText(type)}  ${id}  ${terminalText(task.status)}  ${terminalText(task.name)}${tag}\n`
}

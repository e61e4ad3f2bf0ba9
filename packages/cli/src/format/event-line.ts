import type { TaskEvent } from '@tasklane/client'
import { escapeControls } from './terminal-text.js'

/**
 * One change as a line of `tasklane watch`: `created  42  open  Write docs  [docs]`,
 * `updated  42  done  Write docs  [docs]`, `deleted  42` (a deleted task is only its id).
 */
export function formatEvent({ type, task }: TaskEvent): string {
  if (type === 'deleted') return `${type}  ${task.id}\n`
  const tag = task.tag === undefined ? '' : `  [${escapeControls(task.tag)}]`
  return `${type}  ${task.id}  ${escapeControls(task.status ?? '')}  ${escapeControls(task.name)}${tag}\n`
}

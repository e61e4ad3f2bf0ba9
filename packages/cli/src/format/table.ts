import type { Task } from '@tasklane/client'
import { displayWidth, escapeControls, padEnd, truncate } from './terminal-text.js'

/** The narrowest a name column is cut to, however narrow the terminal. */
const MIN_NAME_COLUMNS = 12
const GAP = '  '

/** One task as the table row cells: id, name, tag (escaped for a terminal). */
function cells(task: Task): [string, string, string] {
  return [String(task.id), escapeControls(task.name), escapeControls(task.tag ?? '')]
}

/**
 * Tasks as a table with the header `ID  NAME  TAG`, ids right-aligned. With `columns`
 * (a terminal's width) long names, then tags, are cut with `…` so that no line wraps.
 */
export function formatTable(tasks: readonly Task[], columns?: number): string {
  const rows = [['ID', 'NAME', 'TAG'], ...tasks.map(cells)] as [string, string, string][]
  const idWidth = Math.max(...rows.map(([id]) => id.length))
  let nameWidth = Math.max(...rows.map(([, name]) => displayWidth(name)))
  let tagWidth = Math.max(...rows.map(([, , tag]) => displayWidth(tag)))
  if (columns !== undefined) {
    const room = columns - idWidth - 2 * GAP.length
    if (nameWidth + tagWidth > room) {
      // The tag keeps up to a third of the room, the name the rest.
      tagWidth = Math.min(tagWidth, Math.max(3, Math.floor(room / 3)))
      nameWidth = Math.max(MIN_NAME_COLUMNS, room - tagWidth)
      tagWidth = Math.max(3, room - nameWidth)
    }
  }
  const lines = rows.map(([id, name, tag]) =>
    [id.padStart(idWidth), padEnd(truncate(name, nameWidth), nameWidth), truncate(tag, tagWidth)]
      .join(GAP)
      .trimEnd(),
  )
  return `${lines.join('\n')}\n`
}

/** One task as a line of `tasklane watch`: `42  Write docs  [docs]`. */
export function formatLine(task: Task): string {
  const tag = task.tag === undefined ? '' : `  [${escapeControls(task.tag)}]`
  return `${task.id}  ${escapeControls(task.name)}${tag}\n`
}

import type { Task } from '@tasklane/client'
import { displayWidth, padEnd, terminalText, truncate } from './terminal-text.js'

/** The narrowest a name column is cut to, however narrow the terminal. */
const MIN_NAME_COLUMNS = 12
const GAP = '  '

type Row = [id: string, status: string, name: string, tag: string]

/**
 * One task as the table's cells, each escaped for a terminal: a server may send anything,
 * an id that is text included. A server from before the task lifecycle sends no status: an
 * empty cell, not a crash.
 */
function cells(task: Task): Row {
  return [
    terminalText(task.id),
    terminalText(task.status),
    terminalText(task.name),
    terminalText(task.tag),
  ]
}

/**
 * Tasks as a table with the header `ID  STATUS  NAME  TAG`, ids right-aligned. With
 * `columns` (a terminal's width) long names, then tags, are cut with `…` so that no line
 * wraps.
 */
export function formatTable(tasks: readonly Task[], columns?: number): string {
  const rows: Row[] = [['ID', 'STATUS', 'NAME', 'TAG'], ...tasks.map(cells)]
  const idWidth = Math.max(...rows.map(([id]) => id.length))
  const statusWidth = Math.max(...rows.map(([, status]) => displayWidth(status)))
  let nameWidth = Math.max(...rows.map(([, , name]) => displayWidth(name)))
  let tagWidth = Math.max(...rows.map(([, , , tag]) => displayWidth(tag)))
  if (columns !== undefined) {
    const room = columns - idWidth - statusWidth - 3 * GAP.length
    if (nameWidth + tagWidth > room) {
      // The tag keeps up to a third of the room, the name the rest.
      tagWidth = Math.min(tagWidth, Math.max(3, Math.floor(room / 3)))
      nameWidth = Math.max(MIN_NAME_COLUMNS, room - tagWidth)
      tagWidth = Math.max(3, room - nameWidth)
    }
  }
  const lines = rows.map(([id, status, name, tag]) =>
    [
      id.padStart(idWidth),
      padEnd(status, statusWidth),
      padEnd(truncate(name, nameWidth), nameWidth),
      truncate(tag, tagWidth),
    ]
      .join(GAP)
      .trimEnd(),
  )
  return `${lines.join('\n')}\n`
}

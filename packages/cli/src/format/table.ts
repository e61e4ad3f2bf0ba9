import type { Task } from '@tasklane/client'
import { PRIORITY_WORDS } from '../priority.js'
import { displayWidth, padEnd, terminalText, truncate } from './terminal-text.js'

/** The narrowest a name column is cut to, however narrow the terminal. */
const MIN_NAME_COLUMNS = 12
const GAP = '  '

type Row = [id: string, status: string, priority: string, due: string, name: string, tag: string]

/** A priority as a word (`high`), nothing for none (0), and any other value as it came. */
function priorityText(priority: unknown): string {
  if (priority === 0) return ''
  return typeof priority === 'number' && PRIORITY_WORDS[priority] !== undefined
    ? (PRIORITY_WORDS[priority] ?? '')
    : terminalText(priority)
}

/**
 * One task as the table's cells, each escaped for a terminal: a server may send anything,
 * an id that is text included. A server from before the task lifecycle sends no status
 * (nor one from before planning a priority): an empty cell, not a crash.
 */
function cells(task: Task): Row {
  return [
    terminalText(task.id),
    terminalText(task.status),
    priorityText(task.priority),
    terminalText(task.due),
    terminalText(task.name),
    terminalText(task.tag),
  ]
}

/** The widest cell of a column. */
const widest = (rows: readonly Row[], column: number) =>
  Math.max(...rows.map((row) => displayWidth(row[column] ?? '')))

/**
 * Tasks as a table with the header `ID  STATUS  PRIORITY  DUE  NAME  TAG`, ids
 * right-aligned, the due date as the server keeps it (a day, or a moment with its offset).
 * With `columns` (a terminal's width) long names, then tags, are cut with `…` so that no
 * line wraps.
 */
export function formatTable(tasks: readonly Task[], columns?: number): string {
  const rows: Row[] = [['ID', 'STATUS', 'PRIORITY', 'DUE', 'NAME', 'TAG'], ...tasks.map(cells)]
  const [idWidth, statusWidth, priorityWidth, dueWidth] = [0, 1, 2, 3].map((column) =>
    widest(rows, column),
  ) as [number, number, number, number]
  let nameWidth = widest(rows, 4)
  let tagWidth = widest(rows, 5)
  if (columns !== undefined) {
    const room = columns - idWidth - statusWidth - priorityWidth - dueWidth - 5 * GAP.length
    if (nameWidth + tagWidth > room) {
      // The tag keeps up to a third of the room, the name the rest.
      tagWidth = Math.min(tagWidth, Math.max(3, Math.floor(room / 3)))
      nameWidth = Math.max(MIN_NAME_COLUMNS, room - tagWidth)
      tagWidth = Math.max(3, room - nameWidth)
    }
  }
  const lines = rows.map(([id, status, priority, due, name, tag]) =>
    [
      id.padStart(idWidth),
      padEnd(status, statusWidth),
      padEnd(priority, priorityWidth),
      padEnd(due, dueWidth),
      padEnd(truncate(name, nameWidth), nameWidth),
      truncate(tag, tagWidth),
    ]
      .join(GAP)
      .trimEnd(),
  )
  return `${lines.join('\n')}\n`
}

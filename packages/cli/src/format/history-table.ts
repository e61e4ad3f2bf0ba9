import type { HistoryEntry } from '@tasklane/client'
import { displayWidth, padEnd, terminalText, truncate } from './terminal-text.js'

/** The narrowest the changes column is cut to, however narrow the terminal. */
const MIN_CHANGES_COLUMNS = 12
const GAP = '  '

/** A value before or after a change: `none` for none, else its JSON (`"done"`, `2`). */
function valueText(value: unknown): string {
  return value === null || value === undefined ? 'none' : (JSON.stringify(value) ?? String(value))
}

/** The fields a change set, one after another: `status: "open" → "done", priority: 0 → 2`. */
export function changesText(changes: HistoryEntry['changes']): string {
  // A server may send anything: a changes that is no object is shown as it came.
  if (typeof changes !== 'object' || changes === null) return terminalText(changes)
  return Object.entries(changes)
    .map(([field, change]) => {
      const { from, to } = (change ?? {}) as { from?: unknown; to?: unknown }
      return terminalText(`${field}: ${valueText(from)} → ${valueText(to)}`)
    })
    .join(', ')
}

/**
 * A task's history as a table with the header `SEQ  AT  ACTOR  TYPE  CHANGES`, seqs
 * right-aligned, every field escaped for a terminal. With `columns` (a terminal's width)
 * the changes are cut with `…` so that no line wraps.
 */
export function formatHistory(entries: readonly HistoryEntry[], columns?: number): string {
  const rows = [
    ['SEQ', 'AT', 'ACTOR', 'TYPE', 'CHANGES'],
    ...entries.map((entry) => [
      terminalText(entry.seq),
      terminalText(entry.at),
      terminalText(entry.actor),
      terminalText(entry.type),
      changesText(entry.changes),
    ]),
  ]
  const widths = [0, 1, 2, 3].map((column) =>
    Math.max(...rows.map((row) => displayWidth(row[column] ?? ''))),
  )
  const used = widths.reduce((sum, width) => sum + width + GAP.length, 0)
  const room = columns === undefined ? Number.POSITIVE_INFINITY : columns - used
  const changesWidth = Math.max(MIN_CHANGES_COLUMNS, room)
  const lines = rows.map(([seq = '', at = '', actor = '', type = '', changes = '']) =>
    [
      seq.padStart(widths[0] ?? 0),
      padEnd(at, widths[1] ?? 0),
      padEnd(actor, widths[2] ?? 0),
      padEnd(type, widths[3] ?? 0),
      truncate(changes, changesWidth),
    ]
      .join(GAP)
      .trimEnd(),
  )
  return `${lines.join('\n')}\n`
}

import { displayWidth, padEnd } from './terminal-text.js'

const GAP = '  '

/**
 * Rows of cells as aligned columns, the first row the header; the columns `right` names
 * right-aligned (numbers), the last one never padded.
 */
export function columns(rows: readonly (readonly string[])[], right: ReadonlySet<number>): string {
  const widths = (rows[0] ?? []).map((_, column) =>
    Math.max(...rows.map((row) => displayWidth(row[column] ?? ''))),
  )
  const lines = rows.map((row) =>
    row
      .map((cell, column) => {
        const width = widths[column] ?? 0
        if (right.has(column)) return cell.padStart(width)
        return column === row.length - 1 ? cell : padEnd(cell, width)
      })
      .join(GAP)
      .trimEnd(),
  )
  return `${lines.join('\n')}\n`
}

import { formatNumber } from '../format/numbers.js'

/** What an import did, printed at its end. */
export interface ImportSummary {
  /** Lines read, blank ones included. */
  lines: number
  /** Tasks created by this run. */
  created: number
  /** Lines whose task an earlier run had created: the server replayed it. */
  replayed: number
  /** Lines that are not a JSON object, or that the server refused. */
  failed: number
}

/** `5,000 tasks`, `1 task` */
function count(value: number, one: string, many: string): string {
  return `${formatNumber(value)} ${value === 1 ? one : many}`
}

/**
 * The last line of an import: one JSON object with `json`, else
 * `Read 5,000 lines: 4,990 tasks created, 10 already imported, 0 refused.`
 */
export function formatSummary(summary: ImportSummary, json: boolean): string {
  if (json) return `${JSON.stringify(summary)}\n`
  const { lines, created, replayed, failed } = summary
  return (
    `Read ${count(lines, 'line', 'lines')}: ${count(created, 'task', 'tasks')} created, ` +
    `${formatNumber(replayed)} already imported, ${formatNumber(failed)} refused.\n`
  )
}

import type { HistoryEntry } from './planning-api.js'

/** A field's value as the history shows it: a string quoted, nothing as `none`. */
function valueInWords(field: string, value: unknown): string {
  if (value === null || value === undefined) return 'none'
  if (field === 'priority') return ['none', 'low', 'medium', 'high'][Number(value)] ?? String(value)
  if (typeof value === 'string') return `“${value.length > 60 ? `${value.slice(0, 60)}…` : value}”`
  return String(value)
}

/** What one change did, in words: `moved`, `status “open” → “done”; priority none → high`. */
export function changeInWords(entry: HistoryEntry): string {
  if (entry.type === 'created') return 'created'
  if (entry.type === 'deleted') return 'deleted'
  if (entry.type === 'moved') return 'moved in the order'
  const fields = Object.entries(entry.changes).filter(([field]) => field !== 'completedAt')
  const said = fields.map(
    ([field, { from, to }]) => `${field} ${valueInWords(field, from)} → ${valueInWords(field, to)}`,
  )
  return said.length === 0 ? 'changed' : said.join('; ')
}

/**
 * A task's history in its editor: a list of its changes, newest first (`2 min ago, alice:
 * name “a” → “b”`), read when the editor opens; text only, never HTML.
 */
export function renderHistory(into: HTMLOListElement, entries: readonly HistoryEntry[]): void {
  const when = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' })
  into.replaceChildren(
    ...entries.map((entry) => {
      const item = document.createElement('li')
      const time = Object.assign(document.createElement('time'), {
        dateTime: entry.at,
        textContent: when.format(new Date(entry.at)),
      })
      item.append(time, ` ${entry.actor}: ${changeInWords(entry)}`)
      return item
    }),
  )
}

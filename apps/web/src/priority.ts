/** The priorities a task may have, as the editor offers them: 0 none, 1 low, 2 medium, 3 high. */
export const PRIORITIES = [
  { value: 0, name: 'None' },
  { value: 1, name: 'Low' },
  { value: 2, name: 'Medium' },
  { value: 3, name: 'High' },
] as const

/** What a row says of a priority: `High priority`; nothing for none. */
export function priorityInWords(priority: number): string {
  const known = PRIORITIES.find((p) => p.value === priority)
  return priority === 0 || known === undefined ? '' : `${known.name} priority`
}

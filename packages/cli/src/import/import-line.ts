import { createHash } from 'node:crypto'

/** One line of an import file: the body to send, or why there is none. */
export type ImportLine = { readonly body: Record<string, unknown> } | { readonly error: string }

/**
 * The body of the task that line `text` describes: a new task `{name, tag?}` as is, or a
 * task as `tasklane export` prints it without its `id` (the server gives a new one). The
 * server checks the rest, so that it refuses a bad line with its own message.
 */
export function parseImportLine(text: string): ImportLine {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { error: 'is not valid JSON' }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: 'is not a JSON object' }
  }
  const { id: _id, ...body } = value as Record<string, unknown>
  return { body }
}

/**
 * The Idempotency-Key of line `number` (1-based) holding `text`: the same line at the same
 * place gives the same key, so a second run replays the first run's task instead of making
 * another; identical lines at different places give different keys, so each is a task.
 */
export function importKey(number: number, text: string): string {
  return `tasklane-import-${createHash('sha256').update(`${number}\n${text}`).digest('hex')}`
}

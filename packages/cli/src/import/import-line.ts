import { createHash } from 'node:crypto'
import { formatNumber } from '../format/numbers.js'
import { describeJsonError } from './json-error.js'

/** One line of an import file: the body to send, or why there is none. */
export type ImportLine = { readonly body: Record<string, unknown> } | { readonly error: string }

/** What a task as `tasklane export` prints it holds that only the server may set. */
const SERVER_FIELDS = [
  'id',
  'version',
  'createdAt',
  'createdBy',
  'updatedAt',
  'updatedBy',
  'completedAt',
  'position',
]

/**
 * The body of the task that line `text` describes: a new task `{name, tag?}` as is, or a
 * task as `tasklane export` prints it without what the server sets (`id`, `version`, the
 * times and actors of its creation and last change, `completedAt`, `position`): the server
 * gives new ones, a task goes last in its list, and its notes, due and priority come along.
 * The server checks the rest, so that it refuses a bad line with its own message.
 */
export function parseImportLine(text: string): ImportLine {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { error: describeJsonError(text, error) }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: 'is not a JSON object' }
  }
  const body = { ...(value as Record<string, unknown>) }
  for (const field of SERVER_FIELDS) delete body[field]
  return { body }
}

/**
 * The Idempotency-Key of line `number` (1-based) holding `text`: the same line at the same
 * place gives the same key, so a second run replays the first run's task instead of making
 * another; identical lines at different places give different keys, so each is a task.
 * Nothing else goes in (not the file's name), so a file and the same lines on standard
 * input give the same keys.
 */
export function importKey(number: number, text: string): string {
  return `tasklane-import-${createHash('sha256').update(`${number}\n${text}`).digest('hex')}`
}

/** Why a line of `length` bytes is not sent: `is 70,000 bytes long; the server takes …`. */
export function tooLong(length: number, maxBytes: number): string {
  return `is ${formatNumber(length)} bytes long; the server takes at most ${formatNumber(maxBytes)} bytes for a task.`
}

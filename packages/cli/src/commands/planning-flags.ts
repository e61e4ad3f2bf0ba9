import type { ChoiceFlag, StringFlag } from '../command-line/spec.js'
import { PRIORITY_WORDS } from '../priority.js'

/** `--notes TEXT` of add (edit adds `--no-notes`). */
export const notes = {
  type: 'string',
  value: 'TEXT',
  help: 'Notes: plain text, 1 to 10,000 characters, newlines allowed.',
} as const satisfies StringFlag

/** `--due DATE` of add (edit adds `--no-due`). */
export const due = {
  type: 'string',
  value: 'DATE',
  help: 'Due on a day (2026-12-01) or at a moment with an offset (2026-12-01T17:00:00+01:00).',
} as const satisfies StringFlag

/** `--priority P`: a word or its number. */
export const priority = {
  type: 'choice',
  value: 'P',
  // PRIORITY_WORDS, and their numbers.
  choices: ['none', 'low', 'medium', 'high', '0', '1', '2', '3'],
  short: ['p'],
  help: "Priority: 'none' (0), 'low' (1), 'medium' (2) or 'high' (3).",
} as const satisfies ChoiceFlag

/** The number the API takes for a `--priority` given, or undefined when none was. */
export function priorityValue(
  given: (typeof priority.choices)[number] | undefined,
): number | undefined {
  if (given === undefined) return undefined
  return /^\d$/.test(given) ? Number(given) : PRIORITY_WORDS.indexOf(given)
}

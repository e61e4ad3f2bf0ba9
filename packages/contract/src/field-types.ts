// The building blocks of the schemas: identifiers, texts with the name's rules, timestamps,
// principals, and their bounds.
import { Type } from '@sinclair/typebox'
import { PORTABLE_TEXT_PATTERN } from './text-pattern.js'

/** Largest id the server ever issues: every JavaScript client reads ids exactly. */
export const MAX_TASK_ID = Number.MAX_SAFE_INTEGER

/** Largest value of the `limit` query parameter (int32). */
export const MAX_LIMIT = 2_147_483_647

/** A text field of at most `max` code points; `maxLength` counts code points in JSON Schema. */
export function text(max: number, options: { description: string; examples: string[] }) {
  return Type.String({ minLength: 1, maxLength: max, pattern: PORTABLE_TEXT_PATTERN, ...options })
}

/** A list's identifier: assigned by the server, ascending in creation order. */
export const ListIdOf = (description: string) =>
  Type.Integer({ minimum: 1, maximum: MAX_TASK_ID, format: 'int64', description, examples: [1] })

/**
 * A principal: who makes requests and changes (`admin`, `local`, a token's principal, a
 * JWT's `sub`): 1–128 visible ASCII characters.
 */
export const PrincipalOf = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 128,
    pattern: '^[\\x21-\\x7E]+$',
    description,
    examples: ['alice@example.com'],
  })

/** An RFC 3339 UTC timestamp with milliseconds, as the server writes them. */
export const Timestamp = (description: string) =>
  Type.String({
    format: 'date-time',
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
    description,
    examples: ['2026-11-25T09:30:00.000Z'],
  })

// What makes a task worth planning with: notes, a due day or moment, a priority, and a
// place in its list's manual order; and how a task is moved in that order.
import { type Static, Type } from '@sinclair/typebox'
import { ListIdOf, MAX_TASK_ID, Timestamp, text } from './field-types.js'

/** A task's notes: 1–10,000 code points, the name's rules, newlines allowed; never rendered. */
export const TaskNotes = text(10_000, {
  description:
    'Notes: 1–10,000 characters, not only whitespace; newlines allowed. Plain text (Markdown welcome, never rendered by the server).',
  examples: ['Check the changelog first.\n- link the issue'],
})

/** A day: `YYYY-MM-DD`, a year from 1970 to 9999. */
const DAY = '(?:19[7-9][0-9]|[2-9][0-9]{3})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])'

/** A moment: a day, a time with seconds (and fractions), and an offset (`Z` or `±hh:mm`). */
const MOMENT = `${DAY}T(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\\.[0-9]{1,9})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])`

/** What a day may look like (`dueFrom`, `dueTo`); `isDue` also refuses impossible dates. */
export const DAY_PATTERN = `^${DAY}$`

/** What `due` may look like; `isDue` also refuses impossible dates (2026-02-30). */
export const DUE_PATTERN = `^(?:${DAY}|${MOMENT})$`

/** Days in `month` of `year` (proleptic Gregorian). */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/**
 * Whether `value` is a due as the API takes it: a day `YYYY-MM-DD`, or an RFC 3339
 * date-time with an offset, on a date that exists, in 1970–9999.
 */
export function isDue(value: string): boolean {
  if (!new RegExp(DUE_PATTERN).test(value)) return false
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number]
  return day <= daysIn(year, month)
}

/** A task's due: a day, or a moment with an offset, kept as sent. */
export const TaskDue = Type.String({
  format: 'due',
  pattern: DUE_PATTERN,
  description:
    'a day (YYYY-MM-DD) or a date-time with an offset (2026-12-01T17:00:00+01:00), from 1970 to 9999, kept as sent.',
  examples: ['2026-12-01', '2026-12-01T17:00:00+01:00'],
})

/** A task's priority: 0 none (the default), 1 low, 2 medium, 3 high. */
export const TaskPriority = Type.Integer({
  minimum: 0,
  maximum: 3,
  description: 'Priority: 0 none (the default), 1 low, 2 medium, 3 high.',
  examples: [2],
})

/** When a task became done, set by the server; gone when it is opened again. */
export const CompletedAt = Timestamp(
  'When the task became done (RFC 3339, UTC, milliseconds); set by the server.',
)

/** A task's place in its list's manual order: strings that sort (by bytes) as the tasks do. */
export const TaskPosition = Type.String({
  minLength: 1,
  // Moves to one spot lengthen a key by a character every six or so (10,000: 1,666
  // characters); 2,400 stays within PostgreSQL's B-tree entry of the order's index.
  maxLength: 2400,
  pattern: '^[0-9A-Za-z]+$',
  description:
    "The task's place in its list's manual order: compared as bytes, positions sort as the tasks are ordered. Set by the server (a new task goes last in its list; POST /tasks/{id}/move moves it).",
  examples: ['a0'],
})

/** Where a move puts a task: before or after another, or at the top or bottom of its list. */
export const MoveTask = Type.Object(
  {
    before: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_TASK_ID,
        format: 'int64',
        description: 'Put it just before this task.',
      }),
    ),
    after: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_TASK_ID,
        format: 'int64',
        description: 'Put it just after this task.',
      }),
    ),
    to: Type.Optional(
      Type.Union([Type.Literal('top'), Type.Literal('bottom')], {
        description: 'Put it first (top) or last (bottom) of its list.',
      }),
    ),
    listId: Type.Optional(
      ListIdOf('Move it into this list too (the caller must be an editor of both lists).'),
    ),
  },
  {
    $id: 'MoveTask',
    additionalProperties: false,
    description:
      'Where to move a task: exactly one of before, after or to, and optionally listId. A referenced task must be in the (target) list.',
  },
)
/** The body of POST /tasks/{id}/move. */
export type MoveTask = Static<typeof MoveTask>

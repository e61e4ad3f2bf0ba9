// What requests carry besides a body: the query strings, path parameters and headers of the
// routes, as TypeBox schemas the server validates with and the client types its calls from.
import { type Static, Type } from '@sinclair/typebox'
import { ListIdOf, MAX_LIMIT, MAX_TASK_ID, text } from './field-types.js'
import { DAY_PATTERN } from './planning.js'

/** An id parameter: a keyset cursor (`after` from 0, `before` from 1) or a resume point. */
const idParameter = (minimum: 0 | 1, description: string) =>
  Type.Integer({ minimum, maximum: MAX_TASK_ID, format: 'int64', description })

/** `tag`: only tasks with exactly this tag. */
const TagFilter = text(64, {
  description: 'Return only tasks with exactly this tag.',
  examples: ['docs'],
})

/** `status`: only tasks in this state. */
const StatusFilter = Type.Union([Type.Literal('open'), Type.Literal('done')], {
  description: 'Return only tasks with this status: open or done.',
})

/** A day of a due range: `YYYY-MM-DD`, inclusive. */
const DayParameter = (description: string) =>
  Type.String({
    format: 'due',
    pattern: DAY_PATTERN,
    description,
    examples: ['2026-12-01'],
  })

/** The filters of due dates and priority, shared by GET /tasks and its change feed. */
const planningFilters = {
  priority: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 3, description: 'Only tasks of this priority (0–3).' }),
  ),
  dueFrom: Type.Optional(
    DayParameter('Only tasks due on this day or later (a moment counts on its day in tz).'),
  ),
  dueTo: Type.Optional(
    DayParameter('Only tasks due on this day or earlier (a moment counts on its day in tz).'),
  ),
  tz: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_+/-]+$',
      description:
        'The IANA time zone (Europe/Paris) in which dueFrom, dueTo and overdue count days. Default UTC.',
      examples: ['Europe/Paris'],
    }),
  ),
}

/** A position in the change sequence: 0 (before any change) to 2^53−1. */
const seqParameter = (description: string) =>
  Type.Integer({ minimum: 0, maximum: MAX_TASK_ID, format: 'int64', description })

/** Query string of GET /tasks. Unknown parameters are rejected. */
export const ListTasksQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_LIMIT,
        format: 'int32',
        description: 'Maximum number of tasks to return. Omitted: all tasks.',
      }),
    ),
    after: Type.Optional(
      idParameter(0, 'Return only tasks whose id is greater than this (keyset pagination).'),
    ),
    before: Type.Optional(
      idParameter(
        1,
        'Return only tasks whose id is less than this (keyset pagination in desc order).',
      ),
    ),
    order: Type.Optional(
      Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
        default: 'asc',
        description: 'asc: oldest first (the default); desc: newest first.',
      }),
    ),
    tag: Type.Optional(TagFilter),
    status: Type.Optional(StatusFilter),
    list: Type.Optional(ListIdOf('Return only tasks of this list.')),
    sort: Type.Optional(
      Type.Union(
        [
          Type.Literal('id'),
          Type.Literal('due'),
          Type.Literal('priority'),
          Type.Literal('position'),
          Type.Literal('updated'),
        ],
        {
          default: 'id',
          description:
            'id (the default), due (undated last both ways), priority, position (the manual order: by list, then position) or updated; ties by id.',
        },
      ),
    ),
    ...planningFilters,
    overdue: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: 'true: only open tasks due before now (a day is due until it ends in tz).',
      }),
    ),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Words to search for in name and notes: each must begin a word of the task; case and accents ignored.',
        examples: ['release not'],
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        pattern: '^[A-Za-z0-9_-]+$',
        description: "Where the next page starts: copy it from a Link header's next URL.",
      }),
    ),
  },
  { additionalProperties: false },
)
/** Query string of GET /tasks. */
export type ListTasksQuery = Static<typeof ListTasksQuery>

/** Query string of GET /tasks/events. Unknown parameters are rejected. */
export const WatchTasksQuery = Type.Object(
  {
    after: Type.Optional(
      seqParameter(
        'Send every change with a greater seq (each changed task once, in its latest state), then each new one. Omitted: new changes only.',
      ),
    ),
    tag: Type.Optional(TagFilter),
    status: Type.Optional(StatusFilter),
    list: Type.Optional(ListIdOf('Follow only tasks of this list.')),
    ...planningFilters,
  },
  { additionalProperties: false },
)
/** Query string of GET /tasks/events. */
export type WatchTasksQuery = Static<typeof WatchTasksQuery>

/** Headers of GET /tasks/events: where a reconnecting client left off. */
export const WatchTasksHeaders = Type.Object({
  'last-event-id': Type.Optional(
    seqParameter(
      'The id (seq) of the last event received. Resumes the feed after it; takes precedence over after.',
    ),
  ),
})
/** Headers of GET /tasks/events. */
export type WatchTasksHeaders = Static<typeof WatchTasksHeaders>

/** Path parameters of GET, PATCH and DELETE /tasks/{id}. */
export const TaskParams = Type.Object(
  {
    id: Type.Integer({
      minimum: 1,
      maximum: MAX_TASK_ID,
      format: 'int64',
      description: 'Identifier of the task.',
    }),
  },
  { additionalProperties: false },
)
/** Path parameters of GET, PATCH and DELETE /tasks/{id}. */
export type TaskParams = Static<typeof TaskParams>

/** `Idempotency-Key`: 1–255 visible ASCII characters. */
const IdempotencyKey = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7E]+$',
  // The first sentence is what a 400 says the value must be.
  description:
    '1 to 255 visible ASCII characters. Makes the request safe to retry: a repeat with the same key and body returns the first response.',
})

/** One entity tag, strong or weak (RFC 9110): `"3"`, `W/"3"`. */
const ENTITY_TAG = '(?:W/)?"[\\x21\\x23-\\x7E]*"'

/**
 * What If-Match and If-None-Match may hold: `*` alone, or a list of entity tags in which
 * empty elements (`"7",,"999"`, a leading or a trailing comma) are ignored, as RFC 9110
 * (5.6.1.2) asks of a recipient; at least one tag. The same with and without the `u` flag,
 * so any JSON Schema validator reads it as Ajv does.
 */
export const ENTITY_TAG_LIST = `^[ \\t]*(?:\\*|(?:,[ \\t]*)*${ENTITY_TAG}(?:[ \\t]*,(?:[ \\t]*${ENTITY_TAG})?)*)[ \\t]*$`

/** A list of entity tags, or `*` (RFC 9110's If-Match and If-None-Match). */
const entityTags = (description: string) =>
  Type.String({
    maxLength: 1024,
    pattern: ENTITY_TAG_LIST,
    description,
  })

/** Headers of POST /task: an optional idempotency key (1–255 visible ASCII characters). */
export const CreateTaskHeaders = Type.Object({
  'idempotency-key': Type.Optional(IdempotencyKey),
})
/** Headers of POST /task. */
export type CreateTaskHeaders = Static<typeof CreateTaskHeaders>

/** Headers of PATCH and DELETE /tasks/{id}: preconditions and an idempotency key. */
export const ChangeTaskHeaders = Type.Object({
  'if-match': Type.Optional(
    entityTags(
      'a list of entity tags such as "3" (or *), at most 1024 characters. The change happens only if the task\'s current ETag is one of them (strong comparison); otherwise 412.',
    ),
  ),
  'if-none-match': Type.Optional(
    entityTags(
      'a list of entity tags such as "3" (or *), at most 1024 characters. The change happens only if the task\'s current ETag is none of them (weak comparison; * for any task, so always 412 for an existing one); otherwise 412.',
    ),
  ),
  'idempotency-key': Type.Optional(IdempotencyKey),
})
/** Headers of PATCH and DELETE /tasks/{id}. */
export type ChangeTaskHeaders = Static<typeof ChangeTaskHeaders>

/** Headers of GET /tasks/{id}: a conditional read. */
export const GetTaskHeaders = Type.Object({
  'if-match': Type.Optional(
    entityTags(
      'a list of entity tags such as "3" (or *), at most 1024 characters. Unless the task\'s current ETag is one of them (strong comparison), 412.',
    ),
  ),
  'if-none-match': Type.Optional(
    entityTags(
      'a list of entity tags such as "3" (or *), at most 1024 characters. When the task\'s current ETag is one of them (weak comparison), the answer is 304 Not Modified.',
    ),
  ),
})
/** Headers of GET /tasks/{id}. */
export type GetTaskHeaders = Static<typeof GetTaskHeaders>

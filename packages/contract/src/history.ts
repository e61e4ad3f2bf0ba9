// A task's history: every create, change, move and delete, newest first.
import { type Static, Type } from '@sinclair/typebox'
import { ErrorBody } from './error.js'
import { MAX_LIMIT, MAX_TASK_ID, PrincipalOf, Timestamp } from './field-types.js'
import { TaskParams } from './parameters.js'
import type { RouteDefinition } from './route-definition.js'
import { ref } from './task.js'

/** What a history entry records. */
export const HistoryType = Type.Union(
  [
    Type.Literal('created'),
    Type.Literal('updated'),
    Type.Literal('moved'),
    Type.Literal('deleted'),
  ],
  {
    description:
      'created; updated (a PATCH, also one into another list); moved (POST /tasks/{id}/move); deleted (DELETE, or its list deleted).',
  },
)
export type HistoryType = Static<typeof HistoryType>

/** One field's change: its value before and after (null: absent). */
export const FieldChange = Type.Object(
  {
    from: Type.Unknown({ description: 'The value before the change; null when it had none.' }),
    to: Type.Unknown({ description: 'The value after the change; null when it has none.' }),
  },
  { additionalProperties: false },
)
export type FieldChange = Static<typeof FieldChange>

/** One change of a task, as its history keeps it. */
export const HistoryEntry = Type.Object(
  {
    seq: Type.Integer({
      minimum: 1,
      format: 'int64',
      description: 'The seq of the change (the change feed numbers it the same).',
    }),
    at: Timestamp('When the change was committed (RFC 3339, UTC, milliseconds).'),
    actor: PrincipalOf('Who made the change.'),
    type: HistoryType,
    changes: Type.Record(Type.String(), FieldChange, {
      description:
        'The fields the change set, each with its value before and after: listId, name, tag, notes, status, priority, due, completedAt, position. Empty for a delete.',
      examples: [{ status: { from: 'open', to: 'done' } }],
    }),
  },
  {
    $id: 'HistoryEntry',
    additionalProperties: false,
    description: 'One change of a task: its seq, time, actor, type and the fields it changed.',
  },
)
export type HistoryEntry = Static<typeof HistoryEntry>

/** Query string of GET /tasks/{id}/history: pages by seq, newest first. */
export const TaskHistoryQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LIMIT,
        format: 'int32',
        default: 100,
        description: 'Maximum number of entries to return (default 100).',
      }),
    ),
    before: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_TASK_ID,
        format: 'int64',
        description: 'Return only entries whose seq is less than this (keyset pagination).',
      }),
    ),
  },
  { additionalProperties: false },
)
export type TaskHistoryQuery = Static<typeof TaskHistoryQuery>

const errorRef = ref(ErrorBody, { description: 'Unexpected error' })

/** The route of a task's history, keyed by operationId. */
export const historyRoutes = {
  getTaskHistory: {
    operationId: 'getTaskHistory',
    method: 'GET',
    path: '/tasks/{id}/history',
    tags: ['task'],
    summary: "A task's changes, newest first: who made each, when, and what it changed.",
    description:
      'Also for a deleted task, to those who read the list it was in. Entries are kept for HISTORY_RETENTION_DAYS (30 by default). A full page carries a Link header to the next one (before=<last seq>).',
    params: TaskParams,
    querystring: TaskHistoryQuery,
    response: {
      200: Type.Array(ref(HistoryEntry), { description: 'Success' }),
      default: errorRef,
    },
    responseHeaders: { 200: ['Link', 'Tasklane-Seq'] },
    errors: {
      400: 'The id is not a whole number from 1 to 2^53−1, or a query parameter is unknown, repeated, empty or out of its range.',
      404: 'No task ever had this id, or the caller cannot read the list it is (or was last) in.',
    },
  },
} as const satisfies Record<string, RouteDefinition>

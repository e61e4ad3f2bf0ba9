import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { ListIdOf, MAX_TASK_ID, PrincipalOf, Timestamp, text } from './field-types.js'

export { ListIdOf, MAX_LIMIT, MAX_TASK_ID, PrincipalOf, Timestamp, text } from './field-types.js'

import { CompletedAt, TaskDue, TaskNotes, TaskPosition, TaskPriority } from './planning.js'

/** A task's name: 1–200 code points, not blank, no U+0000, no unpaired surrogate. */
export const TaskName = text(200, {
  description: 'Name of the task: 1–200 characters, not only whitespace.',
  examples: ['Write the release notes'],
})

/** A task's tag: 1–64 code points, not blank, no U+0000, no unpaired surrogate. */
export const TaskTag = text(64, {
  description: 'Optional tag: 1–64 characters, not only whitespace.',
  examples: ['docs'],
})

/** A task's identifier: assigned by the server, ascending in creation order. */
export const TaskId = Type.Integer({
  minimum: 1,
  maximum: MAX_TASK_ID,
  format: 'int64',
  description: 'Identifier of the task, assigned by the server.',
  examples: [1],
})

/** A task's state: `open` until done; done tasks can be opened again. */
export const TaskStatus = Type.Union([Type.Literal('open'), Type.Literal('done')], {
  description: 'open or done. A new task is open unless it says otherwise.',
  examples: ['open'],
})
/** A task's state. */
export type TaskStatus = Static<typeof TaskStatus>

/** A task's version: 1 when created, one more on every change; its ETag is `"<version>"`. */
export const TaskVersion = Type.Integer({
  minimum: 1,
  maximum: MAX_TASK_ID,
  format: 'int64',
  description: 'Version of the task: 1 when created, one more on every change.',
  examples: [1],
})

/** The body of POST /task. */
export const NewTask = Type.Object(
  {
    name: TaskName,
    tag: Type.Optional(TaskTag),
    status: Type.Optional(TaskStatus),
    listId: Type.Optional(
      ListIdOf('The list to create the task in. Omitted: the lowest-id list the caller can edit.'),
    ),
    notes: Type.Optional(TaskNotes),
    due: Type.Optional(TaskDue),
    priority: Type.Optional(TaskPriority),
  },
  { $id: 'NewTask', additionalProperties: false, description: 'A task to create.' },
)
/** The body of POST /task. */
export type NewTask = Static<typeof NewTask>

/**
 * A stored task, as every operation returns it. A task without a tag has no `tag` key. The
 * first Task (`id`, `name`, `tag`) is a subset: a client that knows only those keeps working.
 */
export const Task = Type.Object(
  {
    id: TaskId,
    listId: ListIdOf('The list the task is in.'),
    name: TaskName,
    tag: Type.Optional(TaskTag),
    notes: Type.Optional(TaskNotes),
    status: TaskStatus,
    priority: TaskPriority,
    due: Type.Optional(TaskDue),
    completedAt: Type.Optional(CompletedAt),
    position: TaskPosition,
    version: TaskVersion,
    createdAt: Timestamp('When the task was created (RFC 3339, UTC, milliseconds).'),
    createdBy: PrincipalOf('Who created the task.'),
    updatedAt: Timestamp('When the task last changed (RFC 3339, UTC, milliseconds).'),
    updatedBy: PrincipalOf('Who changed the task last (its creator until it is changed).'),
  },
  { $id: 'Task', additionalProperties: false, description: 'A stored task.' },
)
/** A stored task, as every operation returns it. */
export type Task = Static<typeof Task>

/**
 * The body of PATCH /tasks/{id}: a JSON Merge Patch (RFC 7396) of `name`, `tag` and
 * `status`. `"tag": null` removes the tag; a patch must name at least one field.
 */
export const TaskPatch = Type.Object(
  {
    name: Type.Optional(TaskName),
    tag: Type.Optional(
      Type.Union([TaskTag, Type.Null()], {
        description: 'A new tag (1–64 characters, not only whitespace), or null to remove it.',
      }),
    ),
    status: Type.Optional(TaskStatus),
    listId: Type.Optional(
      ListIdOf('Moves the task into this list (last in it): the caller must edit both lists.'),
    ),
    notes: Type.Optional(
      Type.Union([TaskNotes, Type.Null()], { description: 'New notes, or null to remove them.' }),
    ),
    due: Type.Optional(
      Type.Union([TaskDue, Type.Null()], {
        description:
          'a day (YYYY-MM-DD) or a date-time with an offset (2026-12-01T17:00:00+01:00), from 1970 to 9999; or null to remove the due.',
      }),
    ),
    priority: Type.Optional(
      Type.Union([TaskPriority, Type.Null()], {
        description: 'A new priority: 0 none, 1 low, 2 medium, 3 high; or null for 0.',
      }),
    ),
  },
  {
    $id: 'TaskPatch',
    additionalProperties: false,
    minProperties: 1,
    description:
      'A JSON Merge Patch of a task: the fields to change. null removes the tag, the notes or the due, and sets the priority to 0.',
  },
)
/** The body of PATCH /tasks/{id}. */
export type TaskPatch = Static<typeof TaskPatch>

/** What a deleted task leaves in the change feed: its id and its version when deleted. */
export const DeletedTask = Type.Object(
  { id: TaskId, version: TaskVersion },
  {
    $id: 'DeletedTask',
    additionalProperties: false,
    description: 'A deleted task, as a "deleted" event of the change feed carries it.',
  },
)
/** A deleted task in the change feed. */
export type DeletedTask = Static<typeof DeletedTask>

/** A reference to a named schema (`{ $ref: 'Task' }`) that keeps the target's static type. */
export function ref<T extends TSchema>(schema: T, options: { description?: string } = {}) {
  if (schema.$id === undefined) throw new TypeError('ref() needs a schema with an $id')
  return Type.Unsafe<Static<T>>({ ...options, $ref: schema.$id })
}

import { type Static, type TSchema, Type } from '@sinclair/typebox'

/** Largest id the server ever issues: every JavaScript client reads ids exactly. */
export const MAX_TASK_ID = Number.MAX_SAFE_INTEGER

/** Largest value of the `limit` query parameter (int32). */
export const MAX_LIMIT = 2_147_483_647

/**
 * A run of 1..max Unicode code points with at least one non-whitespace character, no
 * U+0000 and no unpaired UTF-16 surrogate. Written so that it means the same with and
 * without the regular expression `u` flag: Ajv compiles patterns with it, most other
 * validators without.
 */
function textPattern(max: number): string {
  return `^(?=[\\s\\S]*\\S)(?:[^\\u0000\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]){1,${max}}$`
}

/** A text field of at most `max` code points; `maxLength` counts code points in JSON Schema. */
export function text(max: number, options: { description: string; examples: string[] }) {
  return Type.String({ minLength: 1, maxLength: max, pattern: textPattern(max), ...options })
}

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

/** The body of POST /task. */
export const NewTask = Type.Object(
  { name: TaskName, tag: Type.Optional(TaskTag) },
  { $id: 'NewTask', additionalProperties: false, description: 'A task to create.' },
)
/** The body of POST /task. */
export type NewTask = Static<typeof NewTask>

/** A stored task, as both operations return it. A task without a tag has no `tag` key. */
export const Task = Type.Object(
  { id: TaskId, name: TaskName, tag: Type.Optional(TaskTag) },
  { $id: 'Task', additionalProperties: false, description: 'A stored task.' },
)
/** A stored task, as both operations return it. */
export type Task = Static<typeof Task>

/** A reference to a named schema (`{ $ref: 'Task' }`) that keeps the target's static type. */
export function ref<T extends TSchema>(schema: T, options: { description?: string } = {}) {
  if (schema.$id === undefined) throw new TypeError('ref() needs a schema with an $id')
  return Type.Unsafe<Static<T>>({ ...options, $ref: schema.$id })
}

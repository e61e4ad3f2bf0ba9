import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { ErrorBody } from './error.js'
import { MAX_LIMIT, MAX_TASK_ID, NewTask, ref, Task, text } from './task.js'

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
      Type.Integer({
        minimum: 0,
        maximum: MAX_TASK_ID,
        format: 'int64',
        description: 'Return only tasks whose id is greater than this (keyset pagination).',
      }),
    ),
    tag: Type.Optional(
      text(64, { description: 'Return only tasks with exactly this tag.', examples: ['docs'] }),
    ),
  },
  { additionalProperties: false },
)
/** Query string of GET /tasks. */
export type ListTasksQuery = Static<typeof ListTasksQuery>

/** Path parameters of GET /tasks/{id}. */
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
/** Path parameters of GET /tasks/{id}. */
export type TaskParams = Static<typeof TaskParams>

/** Headers of POST /task: an optional idempotency key (1–255 visible ASCII characters). */
export const CreateTaskHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7E]+$',
      // The first sentence is what a 400 says the value must be.
      description:
        '1 to 255 visible ASCII characters. Makes the create safe to retry: a repeat with the same key and body returns the first response.',
    }),
  ),
})
/** Headers of POST /task. */
export type CreateTaskHeaders = Static<typeof CreateTaskHeaders>

/** One route of the API as plain data, read by the server (to register) and the client. */
export interface RouteDefinition {
  readonly operationId: string
  readonly method: 'GET' | 'POST'
  /** OpenAPI-style path: `/tasks/{id}`. */
  readonly path: string
  readonly tags: readonly string[]
  readonly summary: string
  readonly querystring?: TSchema
  readonly params?: TSchema
  readonly headers?: TSchema
  readonly body?: TSchema
  readonly response: Readonly<Record<number | 'default', TSchema>>
}

const errorRef = ref(ErrorBody, { description: 'Unexpected error' })

/** The routes of the tasklane API, keyed by operationId. */
export const routes = {
  getTasks: {
    operationId: 'getTasks',
    method: 'GET',
    path: '/tasks',
    tags: ['tasks'],
    summary: 'List tasks in ascending id order; all of them when limit is omitted.',
    querystring: ListTasksQuery,
    response: { 200: Type.Array(ref(Task), { description: 'Success' }), default: errorRef },
  },
  createTask: {
    operationId: 'createTask',
    method: 'POST',
    path: '/task',
    tags: ['task'],
    summary: 'Create a task.',
    headers: CreateTaskHeaders,
    body: ref(NewTask),
    response: { 201: ref(Task, { description: 'Created' }), default: errorRef },
  },
  getTask: {
    operationId: 'getTask',
    method: 'GET',
    path: '/tasks/{id}',
    tags: ['task'],
    summary: 'Read one task by id.',
    params: TaskParams,
    response: { 200: ref(Task, { description: 'Success' }), default: errorRef },
  },
} as const satisfies Record<string, RouteDefinition>

/** The named schemas that routes refer to with `$ref`. */
export const schemas = [Task, NewTask, ErrorBody] as const

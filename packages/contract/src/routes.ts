import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { ErrorBody } from './error.js'
import { MAX_LIMIT, MAX_TASK_ID, NewTask, ref, Task, text } from './task.js'

/** An id parameter: a keyset cursor (`after` from 0, `before` from 1) or a resume point. */
const idParameter = (minimum: 0 | 1, description: string) =>
  Type.Integer({ minimum, maximum: MAX_TASK_ID, format: 'int64', description })

/** `tag`: only tasks with exactly this tag. */
const TagFilter = text(64, {
  description: 'Return only tasks with exactly this tag.',
  examples: ['docs'],
})

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
  },
  { additionalProperties: false },
)
/** Query string of GET /tasks. */
export type ListTasksQuery = Static<typeof ListTasksQuery>

/** Query string of GET /tasks/events. Unknown parameters are rejected. */
export const WatchTasksQuery = Type.Object(
  {
    after: Type.Optional(
      idParameter(
        0,
        'Send every task whose id is greater than this, then each new one. Omitted: new tasks only.',
      ),
    ),
    tag: Type.Optional(TagFilter),
  },
  { additionalProperties: false },
)
/** Query string of GET /tasks/events. */
export type WatchTasksQuery = Static<typeof WatchTasksQuery>

/** Headers of GET /tasks/events: where a reconnecting client left off. */
export const WatchTasksHeaders = Type.Object({
  'last-event-id': Type.Optional(
    idParameter(
      0,
      'The id of the last event received. Resumes the feed after it; takes precedence over after.',
    ),
  ),
})
/** Headers of GET /tasks/events. */
export type WatchTasksHeaders = Static<typeof WatchTasksHeaders>

/** What one event of GET /tasks/events looks like on the wire. */
const TASK_EVENT_EXAMPLE = 'id: 7\nevent: task\ndata: {"id":7,"name":"Write docs","tag":"docs"}\n\n'

/** The 200 body of GET /tasks/events: a Server-Sent Events stream, one event per task. */
export const TaskEventStream = Type.String({
  description:
    'Server-Sent Events. Each task is one event: "id: <task id>", "event: task", "data: <Task JSON>", then a blank line. Tasks come in ascending id order, each matching task exactly once: first those with an id above after (or Last-Event-ID), then each new one once committed. A comment line ": keep-alive" comes at least every 15 s. The stream ends when the server shuts down; reconnect with Last-Event-ID.',
  examples: [TASK_EVENT_EXAMPLE],
})

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
  /** Longer prose for the API reference, when the summary is not enough. */
  readonly description?: string
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
    summary:
      'List tasks in ascending id order (newest first with order=desc); all of them when limit is omitted.',
    description:
      'A full page carries a Link header to the next one. With Accept: application/x-ndjson the same tasks come as one Task JSON per line (Content-Type: application/x-ndjson), streamed.',
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
  watchTasks: {
    operationId: 'watchTasks',
    method: 'GET',
    path: '/tasks/events',
    tags: ['tasks'],
    summary:
      'Follow tasks as they are created: a Server-Sent Events feed that never skips or repeats one.',
    querystring: WatchTasksQuery,
    headers: WatchTasksHeaders,
    response: {
      200: Type.Unsafe<string>({
        description: 'Success: the event stream',
        content: { 'text/event-stream': { schema: TaskEventStream } },
      }),
      default: errorRef,
    },
  },
} as const satisfies Record<string, RouteDefinition>

/** The named schemas that routes refer to with `$ref`. */
export const schemas = [Task, NewTask, ErrorBody] as const

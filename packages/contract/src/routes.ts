import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { ErrorBody } from './error.js'
import { DeletedTask, MAX_LIMIT, MAX_TASK_ID, NewTask, ref, Task, TaskPatch, text } from './task.js'

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

/** What events of GET /tasks/events look like on the wire. */
const TASK_EVENT_EXAMPLE = [
  'id: 7\nevent: created\ndata: {"id":7,"name":"Write docs","tag":"docs","status":"open","version":1,"createdAt":"2026-11-25T09:30:00.000Z","updatedAt":"2026-11-25T09:30:00.000Z"}\n\n',
  'id: 8\nevent: updated\ndata: {"id":7,"name":"Write docs","tag":"docs","status":"done","version":2,"createdAt":"2026-11-25T09:30:00.000Z","updatedAt":"2026-11-25T09:31:00.000Z"}\n\n',
  'id: 9\nevent: deleted\ndata: {"id":7,"version":2}\n\n',
].join('')

/** The kinds of change the feed reports. */
export const ChangeType = Type.Union(
  [Type.Literal('created'), Type.Literal('updated'), Type.Literal('deleted')],
  { description: 'What happened to the task: created, updated or deleted.' },
)
/** The kinds of change the feed reports. */
export type ChangeType = Static<typeof ChangeType>

/**
 * One event of the stream as JSON Schema sees a text/event-stream once parsed (the form of
 * OpenAPI 3.2's itemSchema; 3.1 has no place for it but `contentSchema`): its fields, `data`
 * being JSON text of the task after the change, or of a deleted task's id and version.
 */
const TaskEvent = Type.Object({
  id: Type.String({ description: 'The seq of the change.', examples: ['7'] }),
  event: ChangeType,
  data: Type.String({
    contentMediaType: 'application/json',
    contentSchema: Type.Union([ref(Task), ref(DeletedTask)]),
  }),
})

/** The 200 body of GET /tasks/events: a Server-Sent Events stream, one event per change. */
export const TaskEventStream = Type.String({
  contentMediaType: 'text/event-stream',
  contentSchema: Type.Array(TaskEvent),
  description:
    'Server-Sent Events. Each change is one event: "id: <seq>", "event: created|updated|deleted", "data: <Task JSON>" (for deleted: {"id","version"}), then a blank line. Events come in ascending seq order: first the backlog (each task changed since after, once, in its latest state; deleted ones as deleted), then each change once committed. With tag or status the view stays exact: a task that stops matching comes as deleted, one that starts matching as created. A comment line ": keep-alive" comes at least every 15 s; a comment line ": seq <n>" each time the subscriber has been sent every change of its view up to seq n (a copy built from the events is then exact at n). The stream ends when the server shuts down; reconnect with Last-Event-ID.',
  examples: [TASK_EVENT_EXAMPLE],
})

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

/** A list of entity tags, or `*` (RFC 9110's If-Match and If-None-Match). */
const entityTags = (description: string) =>
  Type.String({
    maxLength: 1024,
    pattern: `^[ \\t]*(?:\\*|${ENTITY_TAG}(?:[ \\t]*,[ \\t]*${ENTITY_TAG})*)[ \\t]*$`,
    description,
  })

/** Headers of POST /task: an optional idempotency key (1–255 visible ASCII characters). */
export const CreateTaskHeaders = Type.Object({
  'idempotency-key': Type.Optional(IdempotencyKey),
})
/** Headers of POST /task. */
export type CreateTaskHeaders = Static<typeof CreateTaskHeaders>

/** Headers of PATCH and DELETE /tasks/{id}: a precondition and an idempotency key. */
export const ChangeTaskHeaders = Type.Object({
  'if-match': Type.Optional(
    entityTags(
      'a list of entity tags such as "3" (or *), at most 1024 characters. The change happens only if the task\'s current ETag is one of them (strong comparison); otherwise 412.',
    ),
  ),
  'idempotency-key': Type.Optional(IdempotencyKey),
})
/** Headers of PATCH and DELETE /tasks/{id}. */
export type ChangeTaskHeaders = Static<typeof ChangeTaskHeaders>

/** Headers of GET /tasks/{id}: a conditional read. */
export const GetTaskHeaders = Type.Object({
  'if-none-match': Type.Optional(
    entityTags(
      'a list of entity tags such as "3" (or *), at most 1024 characters. When the task\'s current ETag is one of them (weak comparison), the answer is 304 Not Modified.',
    ),
  ),
})
/** Headers of GET /tasks/{id}. */
export type GetTaskHeaders = Static<typeof GetTaskHeaders>

/** The error statuses a route may answer, each with an Error body. */
export type ErrorStatus = 400 | 401 | 404 | 409 | 412 | 413 | 415 | 422 | 429 | 503

/** A response header: what it means, and the schema of its value. */
export interface HeaderDefinition {
  readonly description: string
  readonly schema: TSchema
}

/** Every response header the API documents, by name. */
export const responseHeaders = {
  Location: {
    description: 'Path of the created task.',
    schema: Type.String({ examples: ['/tasks/1'] }),
  },
  Link: {
    description:
      'RFC 8288 link to the next page (rel="next"), sent when the page holds `limit` tasks and more exist: `after=<last id>`, or `before=<last id>&order=desc` when newest first.',
    schema: Type.String({ examples: ['</tasks?limit=20&after=20>; rel="next"'] }),
  },
  'Idempotent-Replayed': {
    description:
      'true when this is the stored response to an earlier request with the same Idempotency-Key.',
    schema: Type.String({ enum: ['true'] }),
  },
  ETag: {
    description:
      'The task\'s version as a strong entity tag, `"<version>"`: send it back in If-Match to change the task only if nobody else has.',
    schema: Type.String({ examples: ['"3"'] }),
  },
  'Tasklane-Seq': {
    description:
      'The change sequence number this answer reflects: every change up to it and none after. For a write, the seq of its own change. Watch the feed after it to miss nothing.',
    schema: Type.Integer({ minimum: 0, examples: [42] }),
  },
  'Retry-After': {
    description: 'Seconds to wait before sending the request again.',
    schema: Type.Integer({ minimum: 0, examples: [1] }),
  },
  'WWW-Authenticate': {
    description: 'The scheme to authenticate with: Bearer.',
    schema: Type.String({ examples: ['Bearer realm="tasklane"'] }),
  },
  'X-RateLimit-Limit': {
    description:
      'Requests a minute each client address may send (when the server has a rate limit).',
    schema: Type.Integer({ minimum: 0 }),
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current minute (when the server has a rate limit).',
    schema: Type.Integer({ minimum: 0 }),
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current minute ends (when the server has a rate limit).',
    schema: Type.Integer({ minimum: 0 }),
  },
} as const satisfies Record<string, HeaderDefinition>

/** The name of a documented response header. */
export type ResponseHeaderName = keyof typeof responseHeaders

/** One route of the API as plain data, read by the server (to register) and the client. */
export interface RouteDefinition {
  readonly operationId: string
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
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
  /**
   * The headers of its responses, by status. Omitted: none besides those of `commonErrors`.
   */
  readonly responseHeaders?: Readonly<Partial<Record<number, readonly ResponseHeaderName[]>>>
  /**
   * The errors of this route, by status, each with what causes it. Omitted: only the
   * errors every route may answer (`commonErrors`).
   */
  readonly errors?: Readonly<Partial<Record<ErrorStatus, string>>>
}

/**
 * The errors any route may answer, whatever it does, with their headers; 401 only when the
 * server requires an API token, 429 only when it has a rate limit.
 */
export const commonErrors = {
  401: {
    description: 'The Authorization header is missing or its bearer token is wrong.',
    headers: ['WWW-Authenticate'],
  },
  429: {
    description: 'Too many requests from this address this minute; retry after Retry-After.',
    headers: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
  },
  503: {
    description: 'Overloaded, shutting down or its database unreachable; retry after Retry-After.',
    headers: ['Retry-After'],
  },
} as const satisfies Record<number, { description: string; headers: readonly ResponseHeaderName[] }>

const errorRef = ref(ErrorBody, { description: 'Unexpected error' })

const taskId = TaskParams

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
      'Deleted tasks are never listed. A full page carries a Link header to the next one. Tasklane-Seq says which changes the answer reflects (one consistent snapshot, also for a streamed list). With Accept: application/x-ndjson the same tasks come as one Task JSON per line (Content-Type: application/x-ndjson), streamed.',
    querystring: ListTasksQuery,
    response: { 200: Type.Array(ref(Task), { description: 'Success' }), default: errorRef },
    responseHeaders: { 200: ['Link', 'Tasklane-Seq'] },
    errors: { 400: 'A query parameter is unknown, repeated, empty or out of its range.' },
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
    responseHeaders: { 201: ['Location', 'ETag', 'Tasklane-Seq', 'Idempotent-Replayed'] },
    errors: {
      400: 'The body is not a valid NewTask (the message names the field), or the Idempotency-Key is not valid.',
      409: 'A request with the same Idempotency-Key is still in flight.',
      413: 'The body is larger than 64 KiB.',
      415: 'The body is not application/json.',
      422: 'The Idempotency-Key was used before with a different request.',
    },
  },
  getTask: {
    operationId: 'getTask',
    method: 'GET',
    path: '/tasks/{id}',
    tags: ['task'],
    summary: 'Read one task by id.',
    description:
      'With If-None-Match naming the current ETag (weak comparison; * for any), 304 Not Modified without a body.',
    params: taskId,
    headers: GetTaskHeaders,
    response: {
      200: ref(Task, { description: 'Success' }),
      304: Type.Null({ description: 'Not Modified: the task still has an ETag of If-None-Match.' }),
      default: errorRef,
    },
    responseHeaders: { 200: ['ETag', 'Tasklane-Seq'], 304: ['ETag', 'Tasklane-Seq'] },
    errors: {
      400: 'The id is not a whole number from 1 to 2^53−1, or If-None-Match is not a list of entity tags.',
      404: 'No task has this id, or it was deleted.',
    },
  },
  updateTask: {
    operationId: 'updateTask',
    method: 'PATCH',
    path: '/tasks/{id}',
    tags: ['task'],
    summary: 'Change a task: rename it, retag it, mark it done or open again.',
    description:
      'The body is a JSON Merge Patch (RFC 7396) of name, tag and status, as application/merge-patch+json or application/json; "tag": null removes the tag. With If-Match, the change happens only if the task still has one of its ETags (else 412 with the current ETag). A patch that changes nothing answers the task as it is (same version, no event).',
    params: taskId,
    headers: ChangeTaskHeaders,
    body: ref(TaskPatch),
    response: {
      200: ref(Task, { description: 'Success: the task after the change' }),
      default: errorRef,
    },
    responseHeaders: { 200: ['ETag', 'Tasklane-Seq', 'Idempotent-Replayed'] },
    errors: {
      400: 'The id, the patch (the message names the field), If-Match or the Idempotency-Key is not valid, or the patch changes nothing.',
      404: 'No task has this id, or it was deleted.',
      409: 'A request with the same Idempotency-Key is still in flight.',
      412: "If-Match does not name the task's current ETag (sent back in ETag); nothing changed.",
      413: 'The body is larger than 64 KiB.',
      415: 'The body is not application/merge-patch+json or application/json.',
      422: 'The Idempotency-Key was used before with a different request.',
    },
  },
  deleteTask: {
    operationId: 'deleteTask',
    method: 'DELETE',
    path: '/tasks/{id}',
    tags: ['task'],
    summary: 'Delete a task: it leaves every listing at once, and its id is never used again.',
    description:
      'With If-Match, only if the task still has one of its ETags (else 412 with the current ETag).',
    params: taskId,
    headers: ChangeTaskHeaders,
    response: { 204: Type.Null({ description: 'Deleted' }), default: errorRef },
    responseHeaders: { 204: ['Tasklane-Seq', 'Idempotent-Replayed'] },
    errors: {
      400: 'The id, If-Match or the Idempotency-Key is not valid.',
      404: 'No task has this id, or it was deleted already.',
      409: 'A request with the same Idempotency-Key is still in flight.',
      412: "If-Match does not name the task's current ETag (sent back in ETag); nothing changed.",
      422: 'The Idempotency-Key was used before with a different request.',
    },
  },
  watchTasks: {
    operationId: 'watchTasks',
    method: 'GET',
    path: '/tasks/events',
    tags: ['tasks'],
    summary:
      "Follow every change to tasks: a Server-Sent Events feed of created, updated and deleted events that never skips a task's latest change.",
    querystring: WatchTasksQuery,
    headers: WatchTasksHeaders,
    response: {
      200: Type.Unsafe<string>({
        description: 'Success: the event stream',
        content: { 'text/event-stream': { schema: TaskEventStream } },
      }),
      default: errorRef,
    },
    errors: { 400: 'after, tag, status or the Last-Event-ID header is not valid.' },
  },
} as const satisfies Record<string, RouteDefinition>

/** The named schemas that routes refer to with `$ref`. */
export const schemas = [Task, NewTask, TaskPatch, DeletedTask, ErrorBody] as const

/** Which of the `commonErrors` a server answers: it depends on how the server is set up. */
export interface ServerFeatures {
  /** It requires an API token: 401. */
  readonly apiToken: boolean
  /** It has a rate limit: 429. */
  readonly rateLimit: boolean
}

const RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
] as const satisfies readonly ResponseHeaderName[]

/** Response headers as @fastify/swagger reads them: each a schema with its description. */
const headerSchemas = (names: readonly ResponseHeaderName[]) =>
  Object.fromEntries(
    names.map((name) => {
      const { schema, description } = responseHeaders[name]
      return [name, { ...schema, description }]
    }),
  )

/**
 * A route's complete responses: its own, each error it may answer as an Error body with its
 * cause, and their headers (in each response schema's `headers`, where Fastify's OpenAPI
 * generator reads them). The server registers these, so the document it serves lists them.
 */
export function responsesOf(
  route: RouteDefinition,
  features: ServerFeatures,
): Record<number | 'default', TSchema> {
  const responses: Record<number | 'default', TSchema> = { ...route.response }
  // With a rate limit, every response tells the client where it stands.
  const limits = features.rateLimit ? RATE_LIMIT_HEADERS : []
  for (const status of Object.keys(route.response).filter((key) => key !== 'default')) {
    const names = [...(route.responseHeaders?.[Number(status)] ?? []), ...limits]
    const response = responses[Number(status)]
    if (response && names.length > 0) {
      responses[Number(status)] = { ...response, headers: headerSchemas(names) }
    }
  }
  for (const [status, description] of Object.entries(route.errors ?? {})) {
    responses[Number(status)] = ref(ErrorBody, { description })
  }
  for (const [status, { description, headers }] of Object.entries(commonErrors)) {
    if (status === '401' && !features.apiToken) continue
    if (status === '429' && !features.rateLimit) continue
    responses[Number(status)] = {
      ...ref(ErrorBody, { description }),
      headers: headerSchemas(headers),
    }
  }
  return responses
}

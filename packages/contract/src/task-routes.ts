// The routes of tasks and their change feed, as data (see routes.ts).
import { Type } from '@sinclair/typebox'
import { ErrorBody } from './error.js'
import { TaskEventStream } from './events.js'
import {
  ChangeTaskHeaders,
  CreateTaskHeaders,
  GetTaskHeaders,
  ListTasksQuery,
  TaskParams,
  WatchTasksHeaders,
  WatchTasksQuery,
} from './parameters.js'
import { MoveTask } from './planning.js'
import { PATCH_MEDIA_TYPES, type RouteDefinition, type RouteLink } from './route-definition.js'
import { NewTask, ref, Task, TaskPatch } from './task.js'

const errorRef = ref(ErrorBody, { description: 'Unexpected error' })

const taskId = TaskParams

/** The tasks of GET /tasks as NDJSON: one Task's JSON a line (Accept: application/x-ndjson). */
const TaskLines = Type.String({
  contentMediaType: 'application/x-ndjson',
  contentSchema: Type.Array(ref(Task)),
  description: 'One Task as JSON per line, in the order asked for; streamed.',
})

/** The operations a created task's id leads to. */
const byCreatedId = (operationId: string, description: string): RouteLink => ({
  operationId,
  parameters: { id: '$response.body#/id' },
  description,
})

/**
 * The operations a listed task's id leads to. A link names one value of the response, so
 * these name the page's first task; every other task's id leads to the same operations.
 */
const byFirstId = (operationId: string, description: string): RouteLink => ({
  operationId,
  parameters: { id: '$response.body#/0/id' },
  description,
})

/** The routes of tasks and their change feed, keyed by operationId. */
export const taskRoutes = {
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
    media: { 200: { 'application/x-ndjson': TaskLines } },
    links: {
      200: {
        GetTask: byFirstId('getTask', "Read a listed task (here the page's first) by its id."),
        UpdateTask: byFirstId('updateTask', "Change a listed task (here the page's first)."),
        DeleteTask: byFirstId('deleteTask', "Delete a listed task (here the page's first)."),
      },
    },
    responseHeaders: { 200: ['Link', 'Tasklane-Seq'] },
    errors: { 400: 'A query parameter is unknown, repeated, empty or out of its range.' },
  },
  createTask: {
    operationId: 'createTask',
    method: 'POST',
    path: '/task',
    tags: ['task'],
    summary: 'Create a task.',
    description:
      'The body is a NewTask: a name, and optionally a tag and a status. 201 with the Task, its Location and ETag, once it is committed. With an Idempotency-Key a repeated request answers the first response again (Idempotent-Replayed: true) rather than creating another task.',
    headers: CreateTaskHeaders,
    body: ref(NewTask),
    response: { 201: ref(Task, { description: 'Created' }), default: errorRef },
    links: {
      201: {
        GetTask: byCreatedId('getTask', 'Read the task just created.'),
        UpdateTask: byCreatedId('updateTask', 'Change the task just created.'),
        DeleteTask: byCreatedId('deleteTask', 'Delete the task just created.'),
      },
    },
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
      'The body is a JSON Merge Patch (RFC 7396) of name, tag and status, as application/merge-patch+json or application/json; "tag": null removes the tag. With If-Match, the change happens only if the task still has one of its ETags (else 412 with the current ETag). An empty patch ({}) is a 400. A patch whose values equal the task\'s answers 200 with the task as it is (same version, same updatedAt, no event).',
    params: taskId,
    headers: ChangeTaskHeaders,
    body: ref(TaskPatch),
    consumes: PATCH_MEDIA_TYPES,
    response: {
      200: ref(Task, { description: 'Success: the task after the change' }),
      default: errorRef,
    },
    responseHeaders: { 200: ['ETag', 'Tasklane-Seq', 'Idempotent-Replayed'] },
    errors: {
      400: 'The id, the patch (the message names the field), If-Match or the Idempotency-Key is not valid, or the patch is empty ({}); a patch equal to the task is no error (200).',
      404: 'No task has this id, or it was deleted.',
      409: 'A request with the same Idempotency-Key is still in flight.',
      412: "If-Match does not name the task's current ETag (sent back in ETag); nothing changed.",
      413: 'The body is larger than 64 KiB.',
      415: 'The body is not application/merge-patch+json or application/json; Accept-Patch names both.',
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
  moveTask: {
    operationId: 'moveTask',
    method: 'POST',
    path: '/tasks/{id}/move',
    tags: ['task'],
    summary: "Move a task in its list's manual order, optionally into another list.",
    description:
      'Exactly one of before, after (a task of the target list) or to (top or bottom), and optionally listId: one change (one seq, an updated event). With If-Match, only if the task still has one of its ETags (else 412).',
    params: taskId,
    headers: ChangeTaskHeaders,
    body: ref(MoveTask),
    response: {
      200: ref(Task, { description: 'Success: the task in its new place' }),
      default: errorRef,
    },
    responseHeaders: { 200: ['ETag', 'Tasklane-Seq', 'Idempotent-Replayed'] },
    errors: {
      400: 'The id, the move (not exactly one of before, after and to; a task not in the target list), If-Match or the Idempotency-Key is not valid.',
      403: 'The caller reads the list but may not change its tasks (or the target list).',
      404: 'No task has this id, or the caller cannot read it; or no target list it can read.',
      409: 'A request with the same Idempotency-Key is still in flight.',
      412: "If-Match does not name the task's current ETag (sent back in ETag); nothing changed.",
      413: 'The body is larger than 64 KiB.',
      415: 'The body is not application/json.',
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
    description:
      'Without after or Last-Event-ID the feed starts with the changes made after the request; with them, it first sends each task changed since that seq, once, in its latest state. List the tasks, then watch after the Tasklane-Seq of the listing: nothing is missed, nothing repeated.',
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

import type { routes } from '@tasklane/contract'

// Typed by the contract's routes: if a route moves, this stops compiling.

/** GET: the listing (JSON, or NDJSON for an export). */
export const LIST_PATH: (typeof routes)['getTasks']['path'] = '/tasks'
/** POST: creates a task. */
export const CREATE_PATH: (typeof routes)['createTask']['path'] = '/task'
/** GET, PATCH, DELETE: one task; `{id}` is replaced. */
export const TASK_PATH: (typeof routes)['getTask' | 'updateTask' | 'deleteTask']['path'] =
  '/tasks/{id}'
/** GET: the change feed (Server-Sent Events). */
export const WATCH_PATH: (typeof routes)['watchTasks']['path'] = '/tasks/events'

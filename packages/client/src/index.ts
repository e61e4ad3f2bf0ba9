// Every public export, by name: what is not here is internal and may change.
export { createClient } from './create-client.js'
export { AbortError } from './errors/abort-error.js'
export { ApiError, isApiError } from './errors/api-error.js'
export { ConnectionError } from './errors/connection-error.js'
export { PreconditionFailedError } from './errors/precondition-failed-error.js'
export { ResponseTooLargeError } from './errors/response-too-large-error.js'
export { isTasklaneError, TasklaneError } from './errors/tasklane-error.js'
export { TimeoutError } from './errors/timeout-error.js'
export { ValidationError } from './errors/validation-error.js'
export type {
  ChangeTaskOptions,
  ClientOptions,
  CreateTaskOptions,
  ExportTasksOptions,
  GetTaskOptions,
  ListTasksOptions,
  RequestOptions,
  TaskFilter,
  TasksOptions,
  WatchOptions,
} from './options.js'
export type { ResponseValidator, ValidationIssue } from './response-validator.js'
export { DEFAULT_RETRY, type RetryOptions } from './retry.js'
export type { TasklaneClient } from './tasklane-client.js'
export type {
  DeletedTask,
  ErrorBody,
  NewTask,
  Task,
  TaskEvent,
  TaskPatch,
  TaskStatus,
} from './types.js'

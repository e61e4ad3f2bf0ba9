export {
  type ClientOptions,
  type CreateTaskOptions,
  createClient,
  type ExportTasksOptions,
  type ListTasksOptions,
  type RequestOptions,
  type ResponseValidator,
  type TasklaneClient,
  type TasksOptions,
  type ValidationIssue,
  type WatchOptions,
} from './create-client.js'
export {
  AbortError,
  ApiError,
  ConnectionError,
  isApiError,
  isTasklaneError,
  TasklaneError,
  TimeoutError,
  ValidationError,
} from './errors.js'
export { DEFAULT_RETRY, type RetryOptions } from './retry.js'
export type { ErrorBody, NewTask, Task } from './types.js'

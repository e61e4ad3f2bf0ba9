export type { ErrorBody, NewTask, Task } from '@tasklane/contract'
export {
  type ClientOptions,
  createClient,
  type ListTasksOptions,
  type RequestOptions,
  type TasklaneClient,
} from './create-client.js'
export {
  AbortError,
  ApiError,
  ConnectionError,
  isApiError,
  isTasklaneError,
  TasklaneError,
  TimeoutError,
} from './errors.js'

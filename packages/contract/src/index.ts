export { ErrorBody } from './error.js'
export { ChangeType, TaskEventStream } from './events.js'
export {
  ChangeTaskHeaders,
  CreateTaskHeaders,
  GetTaskHeaders,
  ListTasksQuery,
  TaskParams,
  WatchTasksHeaders,
  WatchTasksQuery,
} from './parameters.js'
export {
  type ErrorStatus,
  type HeaderDefinition,
  type ResponseHeaderName,
  responseHeaders,
} from './response-headers.js'
export {
  commonErrors,
  type RouteDefinition,
  type RouteLink,
  responsesOf,
  routes,
  type ServerFeatures,
  schemas,
} from './routes.js'
export {
  DeletedTask,
  MAX_LIMIT,
  MAX_TASK_ID,
  NewTask,
  ref,
  Task,
  TaskId,
  TaskName,
  TaskPatch,
  TaskStatus,
  TaskTag,
  TaskVersion,
  Timestamp,
} from './task.js'

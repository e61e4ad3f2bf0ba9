export { ErrorBody } from './error.js'
export {
  CreateTaskHeaders,
  commonErrors,
  type ErrorStatus,
  type HeaderDefinition,
  ListTasksQuery,
  type ResponseHeaderName,
  type RouteDefinition,
  responseHeaders,
  responsesOf,
  routes,
  type ServerFeatures,
  schemas,
  TaskEventStream,
  TaskParams,
  WatchTasksHeaders,
  WatchTasksQuery,
} from './routes.js'
export {
  MAX_LIMIT,
  MAX_TASK_ID,
  NewTask,
  ref,
  Task,
  TaskId,
  TaskName,
  TaskTag,
} from './task.js'

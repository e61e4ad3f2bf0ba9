export { ErrorBody } from './error.js'
export {
  CreateTaskHeaders,
  ListTasksQuery,
  type RouteDefinition,
  routes,
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

// The `@tasklane/client/live` entry point: live copies of listings, apart from the default
// entry so that an app that never shows one does not carry it.
export {
  LiveTasks,
  type LiveTasksListener,
  type LiveTasksOptions,
  liveTasks,
} from './live-tasks.js'

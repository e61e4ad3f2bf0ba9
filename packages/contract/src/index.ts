export { accessRoutes } from './access-routes.js'
export { ErrorBody } from './error.js'
export { ChangeType, TaskEventStream } from './events.js'
export {
  FieldChange,
  HistoryEntry,
  HistoryType,
  historyRoutes,
  TaskHistoryQuery,
} from './history.js'
export {
  List,
  ListListsQuery,
  ListName,
  ListParams,
  ListPatch,
  Member,
  MemberParams,
  MemberRole,
  NewList,
  Role,
} from './list.js'
export { listRoutes } from './list-routes.js'
export {
  ChangeTaskHeaders,
  CreateTaskHeaders,
  ENTITY_TAG_LIST,
  GetTaskHeaders,
  ListTasksQuery,
  TaskParams,
  WatchTasksHeaders,
  WatchTasksQuery,
} from './parameters.js'
export {
  CompletedAt,
  DAY_PATTERN,
  DUE_PATTERN,
  isDue,
  MoveTask,
  TaskDue,
  TaskNotes,
  TaskPosition,
  TaskPriority,
} from './planning.js'
export {
  type ErrorStatus,
  type HeaderDefinition,
  type ResponseHeaderName,
  responseHeaders,
} from './response-headers.js'
export {
  commonErrors,
  PATCH_MEDIA_TYPES,
  type RouteDefinition,
  type RouteLink,
  responsesOf,
  routes,
  type ServerFeatures,
  schemas,
} from './routes.js'
export {
  DeletedTask,
  ListIdOf,
  MAX_LIMIT,
  MAX_TASK_ID,
  NewTask,
  PrincipalOf,
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
export {
  Access,
  CreatedToken,
  Me,
  NewToken,
  Token,
  TokenParams,
} from './token.js'
export { webhookRoutes } from './webhook-routes.js'
export {
  CreatedWebhook,
  NewWebhook,
  WEBHOOK_EVENT_TYPES,
  Webhook,
  WebhookDelivery,
  WebhookEventType,
  WebhookParams,
  WebhookPatch,
  WebhookStatus,
} from './webhooks.js'

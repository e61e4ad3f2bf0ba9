// Every public export, by name: what is not here is internal and may change.

export type { AccessMethods } from './access-methods.js'
export { createClient } from './create-client.js'
export { AbortError } from './errors/abort-error.js'
export { ApiError, isApiError } from './errors/api-error.js'
export { ConnectionError } from './errors/connection-error.js'
export { PreconditionFailedError } from './errors/precondition-failed-error.js'
export { ResponseTooLargeError } from './errors/response-too-large-error.js'
export { isTasklaneError, TasklaneError } from './errors/tasklane-error.js'
export { TimeoutError } from './errors/timeout-error.js'
export { ValidationError } from './errors/validation-error.js'
export { WebhookVerificationError } from './errors/webhook-verification-error.js'
export type { HistoryMethods } from './history-methods.js'
export type { ListMethods, PutMemberResult } from './list-methods.js'
export type {
  ChangeOptions,
  ChangeTaskOptions,
  ClientOptions,
  CreateTaskOptions,
  ExportTasksOptions,
  GetTaskOptions,
  HistoryOptions,
  ListListsOptions,
  ListsOptions,
  ListTasksOptions,
  MoveTaskOptions,
  PlanningFilter,
  ReadOptions,
  RequestOptions,
  TaskFilter,
  TaskHistoryOptions,
  TasksOptions,
  WatchOptions,
  WriteOptions,
} from './options.js'
export type { ResponseValidator, SchemaName, ValidationIssue } from './response-validator.js'
export { DEFAULT_RETRY, type RetryOptions } from './retry.js'
export type { TasklaneClient } from './tasklane-client.js'
export type {
  Access,
  CreatedToken,
  DeletedTask,
  ErrorBody,
  FieldChange,
  HistoryEntry,
  HistoryType,
  List,
  ListPatch,
  Me,
  Member,
  MoveTarget,
  MoveTask,
  NewList,
  NewTask,
  NewToken,
  Role,
  Task,
  TaskEvent,
  TaskPatch,
  TaskSort,
  TaskStatus,
  Token,
} from './types.js'
export { verifyWebhook, type WebhookHeaders } from './verify-webhook.js'
export type { WebhookMethods } from './webhook-methods.js'
export type {
  CreatedWebhook,
  NewWebhook,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
  WebhookEventType,
  WebhookPatch,
  WebhookStatus,
} from './webhook-types.js'

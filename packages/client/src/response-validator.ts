/** Where a response body fails the contract: a path such as `[3].name` and why. */
export interface ValidationIssue {
  /** Path into the body: `id`, `[3].name`; empty for the body itself. */
  path: string
  /** Why it fails, e.g. `must be an integer`. */
  message: string
}

/** The contract schemas a response body is checked against: one, or an array of it (`[]`). */
export type SchemaName =
  | 'Task'
  | 'Task[]'
  | 'DeletedTask'
  | 'List'
  | 'List[]'
  | 'Member'
  | 'Member[]'
  | 'Token[]'
  | 'CreatedToken'
  | 'Me'
  | 'HistoryEntry[]'
  | 'Webhook'
  | 'Webhook[]'
  | 'CreatedWebhook'
  | 'WebhookDelivery[]'

/**
 * Checks a response body against a contract schema; returns undefined when it fits. The
 * `@tasklane/client/validate` entry point exports one, `validateResponses`.
 */
export type ResponseValidator = (schema: SchemaName, body: unknown) => ValidationIssue | undefined

import type { TSchema } from '@sinclair/typebox'
import { accessRoutes } from './access-routes.js'
import { ErrorBody } from './error.js'
import { HistoryEntry, historyRoutes } from './history.js'
import { List, ListPatch, Member, MemberRole, NewList } from './list.js'
import { listRoutes } from './list-routes.js'
import { MoveTask } from './planning.js'
import { type ResponseHeaderName, responseHeaders } from './response-headers.js'
import type { RouteDefinition } from './route-definition.js'
import { DeletedTask, NewTask, ref, Task, TaskPatch } from './task.js'
import { taskRoutes } from './task-routes.js'
import { CreatedToken, Me, NewToken, Token } from './token.js'
import { webhookRoutes } from './webhook-routes.js'
import { CreatedWebhook, NewWebhook, Webhook, WebhookDelivery, WebhookPatch } from './webhooks.js'

export { PATCH_MEDIA_TYPES, type RouteDefinition, type RouteLink } from './route-definition.js'

/**
 * The errors any route may answer, whatever it does, with their headers; 401 only when the
 * server requires an API token, 429 only when it has a rate limit.
 */
export const commonErrors = {
  401: {
    description: 'The Authorization header is missing or its bearer token is wrong.',
    headers: ['WWW-Authenticate'],
  },
  429: {
    description: 'Too many requests from this address this minute; retry after Retry-After.',
    headers: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
  },
  503: {
    description: 'Overloaded, shutting down or its database unreachable; retry after Retry-After.',
    headers: ['Retry-After'],
  },
} as const satisfies Record<number, { description: string; headers: readonly ResponseHeaderName[] }>

/** The routes of the tasklane API, keyed by operationId. */
export const routes = {
  ...taskRoutes,
  ...historyRoutes,
  ...listRoutes,
  ...accessRoutes,
  ...webhookRoutes,
} as const

/** The named schemas that routes refer to with `$ref`. */
export const schemas = [
  Task,
  NewTask,
  TaskPatch,
  MoveTask,
  DeletedTask,
  HistoryEntry,
  List,
  NewList,
  ListPatch,
  Member,
  MemberRole,
  Token,
  NewToken,
  CreatedToken,
  Me,
  Webhook,
  CreatedWebhook,
  NewWebhook,
  WebhookPatch,
  WebhookDelivery,
  ErrorBody,
] as const

/** Which of the `commonErrors` a server answers: it depends on how the server is set up. */
export interface ServerFeatures {
  /** It requires an API token: 401. */
  readonly apiToken: boolean
  /** It has a rate limit: 429. */
  readonly rateLimit: boolean
}

const RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
] as const satisfies readonly ResponseHeaderName[]

/** Response headers as @fastify/swagger reads them: each a schema with its description. */
const headerSchemas = (names: readonly ResponseHeaderName[]) =>
  Object.fromEntries(
    names.map((name) => {
      const { schema, description } = responseHeaders[name]
      return [name, { ...schema, description }]
    }),
  )

/**
 * A route's complete responses: its own, each error it may answer as an Error body with its
 * cause, and their headers (in each response schema's `headers`, where Fastify's OpenAPI
 * generator reads them). The server registers these, so the document it serves lists them.
 */
export function responsesOf(
  route: RouteDefinition,
  features: ServerFeatures,
): Record<number | 'default', TSchema> {
  const responses: Record<number | 'default', TSchema> = { ...route.response }
  // With a rate limit, every response tells the client where it stands.
  const limits = features.rateLimit ? RATE_LIMIT_HEADERS : []
  for (const status of Object.keys(route.response).filter((key) => key !== 'default')) {
    const names = [...(route.responseHeaders?.[Number(status)] ?? []), ...limits]
    const response = responses[Number(status)]
    if (response && names.length > 0) {
      responses[Number(status)] = { ...response, headers: headerSchemas(names) }
    }
  }
  for (const [status, description] of Object.entries(route.errors ?? {})) {
    responses[Number(status)] = ref(ErrorBody, { description })
  }
  for (const [status, { description, headers }] of Object.entries(commonErrors)) {
    if (status === '401' && !features.apiToken) continue
    if (status === '429' && !features.rateLimit) continue
    responses[Number(status)] = {
      ...ref(ErrorBody, { description }),
      headers: headerSchemas(headers),
    }
  }
  return responses
}

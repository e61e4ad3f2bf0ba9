import type { routes } from '@tasklane/contract'

// Typed by the contract's routes: if a route moves, this stops compiling.

/** GET: the listing (JSON, or NDJSON for an export). */
export const LIST_PATH: (typeof routes)['getTasks']['path'] = '/tasks'
/** POST: creates a task. */
export const CREATE_PATH: (typeof routes)['createTask']['path'] = '/task'
/** GET, PATCH, DELETE: one task; `{id}` is replaced. */
export const TASK_PATH: (typeof routes)['getTask' | 'updateTask' | 'deleteTask']['path'] =
  '/tasks/{id}'
/** POST: moves a task in its list's manual order (or into another list). */
export const MOVE_PATH: (typeof routes)['moveTask']['path'] = '/tasks/{id}/move'
/** GET: a task's history, newest first. */
export const HISTORY_PATH: (typeof routes)['getTaskHistory']['path'] = '/tasks/{id}/history'
/** GET: the change feed (Server-Sent Events). */
export const WATCH_PATH: (typeof routes)['watchTasks']['path'] = '/tasks/events'
/** GET: the lists the caller can read. */
export const LISTS_PATH: (typeof routes)['getLists']['path'] = '/lists'
/** POST: creates a list. */
export const CREATE_LIST_PATH: (typeof routes)['createList']['path'] = '/list'
/** GET, PATCH, DELETE: one list. */
export const ONE_LIST_PATH: (typeof routes)['getList' | 'updateList' | 'deleteList']['path'] =
  '/lists/{id}'
/** GET: a list's members. */
export const MEMBERS_PATH: (typeof routes)['getMembers']['path'] = '/lists/{id}/members'
/** PUT, DELETE: one member of a list. */
export const MEMBER_PATH: (typeof routes)['putMember' | 'deleteMember']['path'] =
  '/lists/{id}/members/{principal}'
/** POST: makes an access token; GET: lists them. */
export const TOKENS_PATH: (typeof routes)['createToken' | 'getTokens']['path'] = '/tokens'
/** DELETE: revokes an access token. */
export const TOKEN_PATH: (typeof routes)['deleteToken']['path'] = '/tokens/{id}'
/** GET: the caller. */
export const ME_PATH: (typeof routes)['getMe']['path'] = '/me'
/** POST: makes a webhook; GET: lists the caller's. */
export const WEBHOOKS_PATH: (typeof routes)['createWebhook' | 'getWebhooks']['path'] = '/webhooks'
/** GET, PATCH, DELETE: one webhook. */
export const WEBHOOK_PATH: (typeof routes)[
  | 'getWebhook'
  | 'updateWebhook'
  | 'deleteWebhook']['path'] = '/webhooks/{id}'
/** GET: a webhook's latest attempts. */
export const WEBHOOK_DELIVERIES_PATH: (typeof routes)['getWebhookDeliveries']['path'] =
  '/webhooks/{id}/deliveries'

/**
 * `path` with each `{name}` replaced by the next of `values`, URL-encoded. A value of `.` or
 * `..` (a principal may be one) is refused with a TypeError: every URL parser takes it for a
 * dot segment, even encoded, so `/lists/1/members/..` would reach `/lists/1` instead.
 */
export function fillPath(path: string, ...values: (string | number)[]): string {
  let next = 0
  return path.replace(/\{\w+\}/g, () => {
    const value = String(values[next++])
    if (value === '.' || value === '..') {
      throw new TypeError(`"${value}" cannot be a segment of a URL path: ${path}`)
    }
    return encodeURIComponent(value)
  })
}

import type { Task } from '@tasklane/contract'
import { expect } from 'vitest'

/** Anything with a base URL: an in-process TestServer or a server process. */
export interface Reachable {
  readonly url: string
}

/** GETs a path (with its query string). */
export function get(server: Reachable, path: string, init?: RequestInit): Promise<Response> {
  return fetch(`${server.url}${path}`, init)
}

/** POSTs a body to /task as given, with this Content-Type (JSON by default) and headers. */
export function postRaw(
  server: Reachable,
  body: string,
  contentType = 'application/json',
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${server.url}/task`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...headers },
    body,
  })
}

/** POSTs `value` as JSON to /task, with an Idempotency-Key when one is given. */
export function postJson(server: Reachable, value: unknown, key?: string): Promise<Response> {
  const headers: Record<string, string> = key === undefined ? {} : { 'idempotency-key': key }
  return postRaw(server, JSON.stringify(value), 'application/json', headers)
}

/** Creates a task, asserting the 201, and returns it. */
export async function createTask(
  server: Reachable,
  task: { name: string; tag?: string; status?: 'open' | 'done' },
): Promise<Task> {
  const response = await postJson(server, task)
  const body = (await response.json()) as Task
  // The body in the failure message says why (a 503's message, say).
  expect({ status: response.status, body }).toEqual({ status: 201, body: expect.anything() })
  return body
}

/** Every task, from GET /tasks. */
export async function listAll(server: Reachable): Promise<Task[]> {
  const response = await get(server, '/tasks')
  expect(response.status).toBe(200)
  return (await response.json()) as Task[]
}

/** A response from fetch, from `app.inject`, or read off a socket (@tasklane/testing/raw-http). */
export type AnyResponse =
  | Response
  | { readonly statusCode: number; readonly headers: object; readonly body: string }
  | { readonly status: number; readonly headers: object; readonly body: string }

/** Status, Content-Type and body text of any kind of response. */
async function read(response: AnyResponse) {
  if (response instanceof Response) {
    const contentType = response.headers.get('content-type')
    return { status: response.status, contentType, body: await response.text() }
  }
  const status = 'statusCode' in response ? response.statusCode : response.status
  const contentType = (response.headers as Record<string, unknown>)['content-type']
  return { status, contentType, body: response.body }
}

/**
 * Asserts an error response: exactly this status, a JSON Content-Type, and exactly
 * `{ code: status, message }` as the body.
 */
export async function expectError(
  response: AnyResponse,
  status: number,
  message: string,
): Promise<void> {
  const { status: actual, contentType, body } = await read(response)
  let parsed: unknown = body
  try {
    parsed = JSON.parse(body)
  } catch {}
  expect({ status: actual, body: parsed }).toEqual({ status, body: { code: status, message } })
  expect(contentType).toMatch(/^application\/json(;|$)/)
}

/** Reads a JSON body, asserting the JSON Content-Type. */
export async function jsonBody<T = unknown>(response: Response): Promise<T> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/)
  return (await response.json()) as T
}

/**
 * A whole request as raw bytes, for `exchange` (@tasklane/testing/raw-http): the request
 * line, Host, these header lines, then `Connection: close` and the body, exactly as given.
 */
export function rawRequest(
  requestLine: string,
  headerLines: readonly string[],
  body: string,
): string {
  return [requestLine, 'Host: 127.0.0.1', ...headerLines, 'Connection: close', '', body].join(
    '\r\n',
  )
}

/** A whole POST /task request as raw bytes (see `rawRequest`). */
export function rawPostTask(headerLines: readonly string[], body: string): string {
  return rawRequest('POST /task HTTP/1.1', headerLines, body)
}

/** The Content-Length header line of `body`. */
export const lengthOf = (body: string) => `Content-Length: ${Buffer.byteLength(body)}`

/** The security headers of every API response, errors included (not of the /docs page). */
export const API_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
}

/** PATCHes /tasks/{id} with `body` as a JSON Merge Patch (a string is sent as is). */
export function patchRaw(
  server: Reachable,
  id: number | string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${server.url}/tasks/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** DELETEs /tasks/{id} with these headers. */
export function deleteRaw(
  server: Reachable,
  id: number | string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${server.url}/tasks/${id}`, { method: 'DELETE', headers })
}

/** Changes a task, asserting the 200, and returns it as answered. */
export async function patchTask(
  server: Reachable,
  id: number,
  patch: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Task> {
  const response = await patchRaw(server, id, patch, headers)
  const body = (await response.json()) as Task
  expect({ status: response.status, body }).toEqual({ status: 200, body: expect.anything() })
  return body
}

/** Deletes a task, asserting the 204. */
export async function deleteTask(server: Reachable, id: number): Promise<void> {
  const response = await deleteRaw(server, id)
  expect({ status: response.status, body: await response.text() }).toEqual({
    status: 204,
    body: '',
  })
}

/** The Tasklane-Seq header of a response, as a number. */
export function seqOf(response: Response): number {
  const value = response.headers.get('tasklane-seq')
  expect(value).toMatch(/^\d+$/)
  return Number(value)
}

/** A task as the API answers it, for `toEqual`: the given fields, and the lifecycle's as they must look. */
export function aTask(fields: Partial<Task> & { name: string }): Record<string, unknown> {
  return {
    id: expect.any(Number),
    listId: 1,
    status: 'open',
    priority: 0,
    position: expect.stringMatching(/^[0-9A-Za-z]+$/),
    version: 1,
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    createdBy: 'local',
    updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    updatedBy: 'local',
    ...(fields.status === 'done' ? { completedAt: expect.any(String) } : {}),
    ...fields,
  }
}

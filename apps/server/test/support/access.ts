// Callers of a server that asks for credentials: the admin of API_TOKEN, and principals
// with access tokens that the admin makes for them (POST /tokens), each a small client
// on `app.inject`.
import type { CreatedToken, List, Member, Task } from '@tasklane/contract'
import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { TestServer } from './server.js'

/** The API_TOKEN of the servers of these tests: its principal is `admin`. */
export const ADMIN_TOKEN = 'admin-token-of-the-access-tests-0123456789'

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Makes requests as one credential (none: `undefined`). */
export interface Caller {
  readonly token: string | undefined
  /** A request; a body other than a string is sent as JSON (`content-type` may be given). */
  send(
    method: Method,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>
  post(
    url: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>
  put(url: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>
  patch(
    url: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>
  delete(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>
}

/** A client of `server` with this bearer token (none when undefined). */
export function as(server: TestServer, token: string | undefined): Caller {
  const send: Caller['send'] = (method, url, body, headers = {}) => {
    const auth: Record<string, string> =
      token === undefined ? {} : { authorization: `Bearer ${token}` }
    const json = body !== undefined && typeof body !== 'string'
    return server.app.inject({
      method,
      url,
      headers: {
        ...(body === undefined
          ? {}
          : {
              'content-type':
                method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
            }),
        ...auth,
        ...headers,
      },
      ...(body === undefined ? {} : { payload: json ? JSON.stringify(body) : (body as string) }),
    })
  }
  return {
    token,
    send,
    get: (url, headers) => send('GET', url, undefined, headers),
    post: (url, body, headers) => send('POST', url, body, headers),
    put: (url, body, headers) => send('PUT', url, body, headers),
    patch: (url, body, headers) => send('PATCH', url, body, headers),
    delete: (url, headers) => send('DELETE', url, undefined, headers),
  }
}

/** The body of a response with this status (the failure message shows what came instead). */
export function expectStatus<T = unknown>(response: LightMyRequestResponse, status: number): T {
  const body = response.body === '' ? '' : JSON.parse(response.body)
  expect({ status: response.statusCode, body }).toEqual({ status, body: expect.anything() })
  return body as T
}

/** An access token made by the admin: `fields` as POST /tokens takes them. */
export async function makeToken(
  server: TestServer,
  fields: { principal: string; role?: string; lists?: number[]; expiresAt?: string },
): Promise<CreatedToken> {
  const response = await as(server, ADMIN_TOKEN).post('/tokens', { name: 'test', ...fields })
  return expectStatus<CreatedToken>(response, 201)
}

/** A caller acting as `principal` with a write token (or as `fields` say). */
export async function principal(
  server: TestServer,
  name: string,
  fields: { role?: string; lists?: number[] } = {},
): Promise<Caller> {
  return as(server, (await makeToken(server, { principal: name, ...fields })).token)
}

/** Creates a list as `caller`. */
export async function createList(caller: Caller, name: string): Promise<List> {
  return expectStatus<List>(await caller.post('/list', { name }), 201)
}

/** Gives `who` a role in a list, as `caller` (an owner or the admin). */
export async function addMember(
  caller: Caller,
  listId: number,
  who: string,
  role: Member['role'],
): Promise<void> {
  const response = await caller.put(`/lists/${listId}/members/${encodeURIComponent(who)}`, { role })
  expect([200, 201]).toContain(response.statusCode)
}

/** Creates a task in a list as `caller`. */
export async function createTaskIn(caller: Caller, listId: number, name: string): Promise<Task> {
  return expectStatus<Task>(await caller.post('/task', { name, listId }), 201)
}

/** The error body `{ code, message }` a response must be, with its JSON Content-Type. */
export function expectErrorBody(
  response: LightMyRequestResponse,
  status: number,
  message: string | RegExp,
): void {
  expect(response.headers['content-type']).toMatch(/^application\/json(;|$)/)
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status,
    body: {
      code: status,
      message: typeof message === 'string' ? message : expect.stringMatching(message),
    },
  })
}

import type { Task } from '@tasklane/contract'
import { expect } from 'vitest'
import type { Reachable } from './http.js'

/** POSTs a move of task `id` to `server`, with these headers. */
export function move(
  server: Reachable,
  id: number | string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${server.url}/tasks/${id}/move`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** Moves a task, asserting the 200, and returns it as answered with the response. */
export async function moved(
  server: Reachable,
  id: number,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ task: Task; response: Response }> {
  const response = await move(server, id, body, headers)
  const task = (await response.json()) as Task
  expect({ status: response.status, task }).toEqual({ status: 200, task: expect.anything() })
  return { task, response }
}

/** Byte order, as positions compare. */
export const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))

/** Creates a list on an open server (every caller the admin), asserting the 201; its id. */
export async function newList(server: Reachable, name: string): Promise<number> {
  const response = await fetch(`${server.url}/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: number }).id
}

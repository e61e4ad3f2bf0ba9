import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Task } from '@tasklane/contract'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import { buildApp } from '../src/app.js'
import { type Database, openDatabase } from '../src/db/database.js'

/** A running server on 127.0.0.1 backed by a fresh SQLite file in its own temp dir. */
export interface TestServer {
  readonly app: FastifyInstance
  readonly database: Database
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  /** The port the server listens on. */
  readonly port: number
  /** Path of the SQLite file. */
  readonly filename: string
  /** Closes the app and the database and deletes the temp dir. */
  close(): Promise<void>
}

/** Opens a fresh database, builds the app and listens on an ephemeral port. */
export async function startServer(): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'tasklane-test-'))
  const filename = join(dir, 'tasks.db')
  const database = await openDatabase({ kind: 'sqlite', filename })
  const app = await buildApp({ database })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return {
    app,
    database,
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    filename,
    async close() {
      await app.close()
      await database.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** POSTs a raw body to /task with the given Content-Type (JSON by default). */
export function postRaw(
  server: TestServer,
  body: string,
  contentType = 'application/json',
): Promise<Response> {
  return fetch(`${server.url}/task`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  })
}

/** POSTs `value` as JSON to /task. */
export function postJson(server: TestServer, value: unknown): Promise<Response> {
  return postRaw(server, JSON.stringify(value))
}

/** Creates a task, asserting the 201, and returns it. */
export async function createTask(
  server: TestServer,
  task: { name: string; tag?: string },
): Promise<Task> {
  const response = await postJson(server, task)
  expect(response.status).toBe(201)
  return (await response.json()) as Task
}

/** Inserts many tasks directly in one transaction (fast setup for large lists). */
export async function insertMany(
  server: TestServer,
  count: number,
  make: (i: number) => { name: string; tag?: string } = (i) => ({ name: `task ${i}` }),
): Promise<void> {
  await server.database.db.transaction().execute(async (trx) => {
    const rows = Array.from({ length: count }, (_, i) => {
      const task = make(i)
      return { name: task.name, tag: task.tag ?? null }
    })
    // SQLite allows at most 32766 bound variables per statement: insert in batches.
    for (let start = 0; start < rows.length; start += 500) {
      await trx
        .insertInto('tasks')
        .values(rows.slice(start, start + 500))
        .execute()
    }
  })
}

/** GETs a path (with query string) from the server. */
export function get(server: TestServer, path: string, init?: RequestInit): Promise<Response> {
  return fetch(`${server.url}${path}`, init)
}

/**
 * Asserts an error response: exact status, JSON content type and exactly
 * `{ code: status, message }` as the body.
 */
export async function expectError(
  response: Response,
  status: number,
  message: string,
): Promise<void> {
  const body = await response.text()
  expect({ status: response.status, body: JSON.parse(body) as unknown }).toEqual({
    status,
    body: { code: status, message },
  })
  expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/)
}

/** Reads a JSON body, asserting the JSON content type. */
export async function jsonBody<T = unknown>(response: Response): Promise<T> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/)
  return (await response.json()) as T
}

import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Task } from '@tasklane/contract'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { expect } from 'vitest'
import { buildApp } from '../src/app.js'
import type { DatabaseConfig } from '../src/config.js'
import { type Database, openDatabase } from '../src/db/database.js'

/**
 * The backend every server test runs on: `TASKLANE_TEST_DATABASE=postgres` (set by the
 * `server-postgres` Vitest project) selects PostgreSQL, anything else SQLite.
 */
export const backend: DatabaseConfig['kind'] =
  process.env.TASKLANE_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'

/** True in the `server-postgres` project. */
export const onPostgres = backend === 'postgres'

/** The PostgreSQL server the tests use (the local one, trust auth); its `test` database. */
export const POSTGRES_URL =
  process.env.TASKLANE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** `url` with its connections' search_path set to `schema`. */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url)
  parsed.searchParams.set('options', `-c search_path=${schema}`)
  return parsed.toString()
}

/** Runs one statement as the PostgreSQL superuser on `url` (the test database by default). */
export async function adminQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  values: unknown[] = [],
  url: string = POSTGRES_URL,
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<R>(text, values)).rows
  } finally {
    await client.end()
  }
}

/** A fresh, empty place to keep tasks: a temp SQLite file, or a new PostgreSQL schema. */
export interface TestDatabase {
  /** What openDatabase takes; open it as often as needed (restarts, several instances). */
  readonly config: DatabaseConfig
  /** PostgreSQL only: the schema's name. */
  readonly schema?: string
  /** Deletes the file or drops the schema. */
  drop(): Promise<void>
}

/** Creates an empty test database on the backend the tests run on. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (backend === 'postgres') {
    const schema = `tl_${randomBytes(6).toString('hex')}`
    await adminQuery(`create schema ${schema}`)
    return {
      // A small pool: both projects' test files run side by side on one server.
      config: { kind: 'postgres', url: withSearchPath(POSTGRES_URL, schema), poolSize: 4 },
      schema,
      drop: async () => {
        await adminQuery(`drop schema if exists ${schema} cascade`)
      },
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'tasklane-test-'))
  return {
    config: { kind: 'sqlite', filename: join(dir, 'tasks.db') },
    drop: () => rm(dir, { recursive: true, force: true }),
  }
}

/** A running server on 127.0.0.1 backed by a fresh database of the tested backend. */
export interface TestServer {
  readonly app: FastifyInstance
  readonly database: Database
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  /** The port the server listens on. */
  readonly port: number
  /** Where the tasks live (file or schema), to reopen it. */
  readonly testDatabase: TestDatabase
  /** Closes the app and the database and deletes the file or drops the schema. */
  close(): Promise<void>
}

/** Opens a fresh database, builds the app and listens on an ephemeral port. */
export async function startServer(): Promise<TestServer> {
  const testDatabase = await createTestDatabase()
  const database = await openDatabase(testDatabase.config)
  const app = await buildApp({ database })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return {
    app,
    database,
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    testDatabase,
    async close() {
      await app.close()
      await database.close()
      await testDatabase.drop()
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
  const body = (await response.json()) as Task
  // The body in the failure message says why (a 503's message, say).
  expect({ status: response.status, body }).toEqual({ status: 201, body: expect.anything() })
  return body
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTask, expectError, get, postJson } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
  await createTask(server, { name: 'before the outage' })
  // The storage closes while the server keeps running (an outage of the PostgreSQL
  // server itself, and its recovery, are in multi-instance.slow.test.ts).
  await server.storage.close()
})

afterAll(async () => {
  await server?.close()
})

const UNAVAILABLE = 'The database is not reachable; retry the request shortly.'

/** Asserts a 5xx body reveals no stack, SQL or file path. */
async function expectOpaque(response: Response, status: number, message: string) {
  const clone = response.clone()
  await expectError(response, status, message)
  expect(clone.headers.get('retry-after')).toBe('1')
  const text = await clone.text()
  expect(text).not.toMatch(/at \w|select|insert|\.ts|\.js|\/tmp|destroyed/i)
}

describe('when the database is unreachable', () => {
  it('GET /health/live still returns 200', async () => {
    expect((await get(server, '/health/live')).status).toBe(200)
  })

  it.each(['/health/ready', '/health'])('GET %s returns 503 with Retry-After', async (path) => {
    await expectOpaque(await get(server, path), 503, UNAVAILABLE)
  })

  it('GET /tasks returns 503 without revealing internals', async () => {
    await expectOpaque(await get(server, '/tasks?limit=5'), 503, UNAVAILABLE)
  })

  it('GET /tasks/{id} returns 503 without revealing internals', async () => {
    await expectOpaque(await get(server, '/tasks/1'), 503, UNAVAILABLE)
  })

  it('POST /task returns 503 without revealing internals', async () => {
    await expectOpaque(await postJson(server, { name: 'lost' }), 503, UNAVAILABLE)
  })

  it('GET /tasks without limit fails with a 503 before streaming starts', async () => {
    await expectOpaque(await get(server, '/tasks'), 503, UNAVAILABLE)
  })
})

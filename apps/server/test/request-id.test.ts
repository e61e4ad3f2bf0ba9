import { exchange } from '@tasklane/testing/raw-http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, get, postJson } from './support/http.js'
import { killAll, type ServerProcess, startServerProcess } from './support/processes.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'

const TOKEN = 'request-id-test-token'
const auth = { authorization: `Bearer ${TOKEN}` }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

let testDatabase: TestDatabase
let server: ServerProcess

beforeAll(async () => {
  testDatabase = await createTestDatabase()
  // A real process at debug level: its log lines are what the operator reads.
  server = await startServerProcess({
    DATABASE_URL: testDatabase.url,
    API_TOKEN: TOKEN,
    LOG_LEVEL: 'debug',
  })
})

afterAll(async () => {
  await killAll()
  await testDatabase?.drop()
})

/** Resolves once the request's own log line ("request") has been written. */
async function requestLine(id: string): Promise<Record<string, unknown>> {
  const pattern = new RegExp(`"reqId":"${id.replace(/[^\w-]/g, '\\$&')}".*"msg":"request"`)
  return JSON.parse(await server.waitForLine(pattern, 5_000)) as Record<string, unknown>
}

describe('X-Request-Id', () => {
  it('keeps the id a request carries and sends it back', async () => {
    const id = 'edge-7f3a:2024/01/01#1'
    const response = await get(server, '/tasks?limit=1', {
      headers: { ...auth, 'x-request-id': id },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-request-id')).toBe(id)
  })

  it('keeps an id of exactly 128 visible ASCII characters', async () => {
    const id = '~'.repeat(128)
    const response = await get(server, '/health/live', { headers: { 'x-request-id': id } })
    expect(response.headers.get('x-request-id')).toBe(id)
  })

  it.each([
    ['longer than 128 characters', 'a'.repeat(129)],
    ['with a space', 'two words'],
    ['empty', ''],
    ['not ASCII', 'caf\u00e9'],
  ])('replaces an id %s with a generated one', async (_, id) => {
    const response = await get(server, '/health/live', {
      headers: { 'x-request-id': Buffer.from(id, 'utf8').toString('latin1') },
    })
    expect(response.headers.get('x-request-id')).toMatch(UUID)
  })

  it('generates a different id for each request that brings none', async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await get(server, '/health/live')).headers.get('x-request-id')),
    )
    for (const id of ids) expect(id).toMatch(UUID)
    expect(new Set(ids).size).toBe(3)
  })

  it.each([
    ['401 without the token', '/tasks', {}, 401],
    ['404 for an unknown route', '/nowhere', auth, 404],
    ['405 for a wrong method', '/tasks/1', auth, 405],
    ['400 from the router (bad percent-encoding)', '/tasks/%zz', auth, 400],
    ['414 from the router (a long path segment)', `/tasks/${'9'.repeat(385)}`, auth, 414],
  ])('is sent back on a %s', async (_, path, headers, status) => {
    const method = status === 405 ? 'PUT' : 'GET'
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...headers, 'x-request-id': `err-${status}` },
    })
    expect(response.status).toBe(status)
    expect(response.headers.get('x-request-id')).toBe(`err-${status}`)
  })

  it('is sent back, generated, on the raw 400 for a request that is not HTTP', async () => {
    const response = await exchange(server.port, 'NOT HTTP AT ALL\r\n\r\n')
    await expectError(response, 400, 'The request is malformed.')
    expect(response.headers['x-request-id']).toMatch(UUID)
  })

  it("is the reqId of the request's log line", async () => {
    const id = 'log-line-of-a-failure'
    const response = await get(server, '/tasks/0', { headers: { ...auth, 'x-request-id': id } })
    expect(response.status).toBe(400)
    expect(await requestLine(id)).toMatchObject({ method: 'GET', status: 400, reqId: id })
  })
})

describe('request logs', () => {
  it('redact the Authorization and Idempotency-Key values', async () => {
    const id = 'redacted-credentials'
    const key = 'idempotency-secret-5b1d'
    const response = await postJson(server, { name: 'logged' }, key)
    expect(response.status).toBe(401)
    const created = await fetch(`${server.url}/task`, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        'idempotency-key': key,
        'x-request-id': id,
      },
      body: JSON.stringify({ name: 'logged' }),
    })
    expect(created.status).toBe(201)
    const line = await requestLine(id)
    // At debug level the headers are there, so a leak would show.
    expect(line.headers).toMatchObject({
      authorization: '[Redacted]',
      'idempotency-key': '[Redacted]',
      'content-type': 'application/json',
      'x-request-id': id,
    })
    expect(server.lines.join('\n')).not.toContain(TOKEN)
    expect(server.lines.join('\n')).not.toContain(key)
  })
})

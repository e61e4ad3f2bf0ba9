import { exchange } from '@tasklane/testing/raw-http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, rawPostTask } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

const TOKEN = 'tl_0123456789abcdef'
const MISSING = 'The Authorization header is missing; send "Authorization: Bearer <token>".'
const INVALID = 'The bearer token in the Authorization header is not valid.'

let server: TestServer

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: TOKEN } })
})

afterAll(async () => {
  await server?.close()
})

const createWith = (headers: Record<string, string>, name: string) =>
  server.app.inject({
    method: 'POST',
    url: '/task',
    headers: { 'content-type': 'application/json', ...headers },
    payload: { name },
  })

describe('API token (API_TOKEN)', () => {
  it('answers 401 to a request with Expect: 100-continue before its body is sent', async () => {
    const response = await exchange(
      server.port,
      rawPostTask(
        ['Content-Type: application/json', 'Expect: 100-continue', 'Content-Length: 12'],
        '',
      ),
    )
    expect(response.statusLine).toBe('HTTP/1.1 401 Unauthorized')
    await expectError(response, 401, MISSING)
  })

  it.each([
    ['GET', '/tasks'],
    ['GET', '/tasks/1'],
    ['POST', '/task'],
    ['GET', '/no-such-route'],
  ] as const)(
    'returns 401 with WWW-Authenticate for %s %s without a token',
    async (method, url) => {
      const response = await server.app.inject({ method, url })
      await expectError(response, 401, MISSING)
      expect(response.headers['www-authenticate']).toBe('Bearer realm="tasklane"')
    },
  )

  it.each([
    ['a wrong token', 'Bearer tl_0123456789abcdeX'],
    ['a prefix of the token', 'Bearer tl_0123456789abcde'],
    ['the token with a suffix', `Bearer ${TOKEN}0`],
    ['another scheme', `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`],
    ['the token without a scheme', TOKEN],
    ['a scheme without a token', 'Bearer'],
    ['a scheme and a blank token', 'Bearer  '],
    ['two tokens', `Bearer ${TOKEN} ${TOKEN}`],
    ['a token scheme', `Token ${TOKEN}`],
  ])('returns 401 for %s', async (_, authorization) => {
    const response = await server.app.inject({ url: '/tasks', headers: { authorization } })
    await expectError(response, 401, INVALID)
    // A credential was sent: RFC 6750 says it was invalid.
    expect(response.headers['www-authenticate']).toBe(
      'Bearer realm="tasklane", error="invalid_token"',
    )
  })

  it('creates nothing for a POST /task without the token', async () => {
    expect((await createWith({}, 'sneaky')).statusCode).toBe(401)
    const list = await server.app.inject({
      url: '/tasks',
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(list.json()).toEqual([])
  })

  it('answers with the right token, the scheme in any case', async () => {
    const created = await createWith({ authorization: `Bearer ${TOKEN}` }, 'authorized')
    expect(created.statusCode).toBe(201)
    const list = await server.app.inject({
      url: '/tasks',
      headers: { authorization: `bearer ${TOKEN}` },
    })
    expect(list.statusCode).toBe(200)
    expect(list.json()).toEqual([created.json()])
  })

  it.each(['/health', '/health/live', '/health/ready', '/openapi.json', '/docs'])(
    'keeps GET %s public',
    async (url) => {
      const response = await server.app.inject({ url })
      expect(response.statusCode).toBe(200)
      expect(response.headers['www-authenticate']).toBeUndefined()
    },
  )

  it.each([
    '/health/../tasks',
    '/health/live/../../tasks',
    '/docs/../tasks',
    '/openapi.json/../tasks',
  ])('does not treat %s as a public path to the tasks', async (url) => {
    const response = await server.app.inject({ url })
    expect(response.statusCode).not.toBe(200)
    expect(response.body).not.toContain('authorized')
  })

  it.each(['/docsx', '/docs-foo', '/healthz', '/health-foo'])(
    'does not treat %s as public',
    async (url) => {
      await expectError(await server.app.inject({ url }), 401, MISSING)
    },
  )
})

import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_SECURITY_HEADERS, expectError } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

const ALLOWED = 'http://app.example.test'
const OTHER = 'http://evil.example.test'

const preflight = (app: FastifyInstance, url: string, origin: string, method = 'POST') =>
  app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'content-type,idempotency-key,authorization',
    },
  })

describe('CORS off (the default)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  it('sends no CORS headers and answers a preflight like any unknown method', async () => {
    const list = await server.app.inject({ url: '/tasks', headers: { origin: ALLOWED } })
    expect(list.statusCode).toBe(200)
    expect(list.headers['access-control-allow-origin']).toBeUndefined()
    const response = await preflight(server.app, '/task', ALLOWED)
    expect(response.statusCode).toBe(405)
    expect(response.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('CORS on (CORS_ORIGINS)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ settings: { corsOrigins: [ALLOWED] } })
  })
  afterAll(() => server.close())

  it('answers a preflight from an allowed origin with the methods and requested headers', async () => {
    const response = await preflight(server.app, '/task', ALLOWED)
    expect(response.statusCode).toBe(204)
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED)
    expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PATCH, DELETE')
    expect(response.headers['access-control-allow-headers']).toBe(
      'content-type,idempotency-key,authorization',
    )
    expect(response.headers['access-control-max-age']).toBe('600')
  })

  it.each(['PATCH', 'DELETE'])(
    'lets a browser %s a task: the preflight allows the method and If-Match',
    async (method) => {
      const response = await server.app.inject({
        method: 'OPTIONS',
        url: '/tasks/1',
        headers: {
          origin: ALLOWED,
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type,if-match,idempotency-key',
        },
      })
      expect(response.statusCode).toBe(204)
      expect(response.headers['access-control-allow-origin']).toBe(ALLOWED)
      expect(response.headers['access-control-allow-methods']).toContain(method)
      expect(response.headers['access-control-allow-headers']).toBe(
        'content-type,if-match,idempotency-key',
      )
    },
  )

  it('exposes Link, Location, Retry-After, Idempotent-Replayed, X-Request-Id, ETag and Tasklane-Seq to the allowed origin', async () => {
    const created = await server.app.inject({
      method: 'POST',
      url: '/task',
      headers: { origin: ALLOWED, 'content-type': 'application/json' },
      payload: { name: 'from a browser' },
    })
    expect(created.statusCode).toBe(201)
    expect(created.headers['access-control-allow-origin']).toBe(ALLOWED)
    expect(created.headers.vary).toMatch(/Origin/)
    expect(created.headers['access-control-expose-headers']).toBe(
      'Link, Location, Retry-After, Idempotent-Replayed, X-Request-Id, ETag, Tasklane-Seq',
    )
  })

  it('lets a listing vary by Origin and by Accept alike', async () => {
    const list = await server.app.inject({ url: '/tasks', headers: { origin: ALLOWED } })
    expect(list.headers.vary).toBe('Origin, Accept')
  })

  it('lets a browser resume the change feed: Last-Event-ID passes the preflight', async () => {
    const response = await server.app.inject({
      method: 'OPTIONS',
      url: '/tasks/events',
      headers: {
        origin: ALLOWED,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'last-event-id',
      },
    })
    expect(response.statusCode).toBe(204)
    expect(response.headers['access-control-allow-headers']).toBe('last-event-id')
  })

  it('gives an error response the CORS headers too, so a browser can read it', async () => {
    const response = await server.app.inject({ url: '/tasks/0', headers: { origin: ALLOWED } })
    expect(response.statusCode).toBe(400)
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED)
  })

  it.each([
    ['without Origin', { 'access-control-request-method': 'POST' }, 'an Origin header'],
    [
      'without Access-Control-Request-Method',
      { origin: ALLOWED },
      'an Access-Control-Request-Method header',
    ],
    ['without either', {}, 'an Origin and an Access-Control-Request-Method header'],
    [
      'with an empty Origin',
      { origin: '', 'access-control-request-method': 'GET' },
      'an Origin header',
    ],
  ])(
    'answers an OPTIONS %s with 400 in the Error shape, with the security headers',
    async (_label, headers, missing) => {
      const response = await server.app.inject({ method: 'OPTIONS', url: '/tasks', headers })
      await expectError(response, 400, `A CORS preflight (OPTIONS) must carry ${missing}.`)
      expect(response.headers).toMatchObject(API_SECURITY_HEADERS)
      expect(response.headers['x-request-id']).toBeDefined()
    },
  )

  it('grants nothing to an origin that is not listed', async () => {
    const list = await server.app.inject({ url: '/tasks', headers: { origin: OTHER } })
    expect(list.headers['access-control-allow-origin']).toBeUndefined()
    const response = await preflight(server.app, '/task', OTHER)
    expect(response.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('still answers 404 for an unknown path, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await server.app.inject({ method, url: '/nope' })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ code: 404, message: `No route matches ${method} "/nope".` })
      expect(response.headers.allow).toBeUndefined()
    }
  })

  it('still answers 405 with the true Allow header on a known path', async () => {
    const response = await server.app.inject({ method: 'DELETE', url: '/tasks' })
    expect(response.statusCode).toBe(405)
    expect(response.headers.allow).toBe('GET, HEAD')
    const post = await server.app.inject({ method: 'PUT', url: '/task' })
    expect(post.statusCode).toBe(405)
    expect(post.headers.allow).toBe('POST')
    const one = await server.app.inject({ method: 'POST', url: '/tasks/1' })
    expect(one.statusCode).toBe(405)
    expect(one.headers.allow).toBe('GET, HEAD, PATCH, DELETE')
    // A wildcard route of its own (the docs' static files) still counts.
    const docs = await server.app.inject({ method: 'POST', url: '/docs/static/index.css' })
    expect(docs.statusCode).toBe(405)
    expect(docs.headers.allow).toBe('GET, HEAD')
  })

  it('allows any origin with *', async () => {
    const any = await startServer({ settings: { corsOrigins: ['*'] } })
    try {
      const response = await preflight(any.app, '/tasks', OTHER, 'GET')
      expect(response.statusCode).toBe(204)
      expect(response.headers['access-control-allow-origin']).toBe('*')
    } finally {
      await any.close()
    }
  })
})

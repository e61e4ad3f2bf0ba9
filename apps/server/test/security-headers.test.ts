import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_SECURITY_HEADERS } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

/** The reference page runs Swagger UI's own scripts and styles, and is never framed. */
const DOCS_CSP =
  "default-src 'self'; base-uri 'self'; script-src 'self'; script-src-attr 'none'; " +
  "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; form-action 'self'; frame-ancestors 'none'"

describe('security headers of the API', () => {
  it.each([
    ['a list', { url: '/tasks' }, 200],
    [
      'a create',
      {
        method: 'POST',
        url: '/task',
        headers: { 'content-type': 'application/json' },
        payload: { name: 'secure' },
      },
      201,
    ],
    ['a 404', { url: '/tasks/999' }, 404],
    ['a 400', { url: '/tasks?limt=1' }, 400],
    [
      'a 415',
      { method: 'POST', url: '/task', payload: 'x', headers: { 'content-type': 'text/plain' } },
      415,
    ],
    ['the OpenAPI document', { url: '/openapi.json' }, 200],
    ['health', { url: '/health/live' }, 200],
    ['/docsx, which is not the docs', { url: '/docsx' }, 404],
    ['/docs-foo, which is not the docs', { url: '/docs-foo' }, 404],
  ] as [string, InjectOptions, number][])('are sent on %s', async (_, request, status) => {
    const response = await server.app.inject(request)
    expect(response.statusCode).toBe(status)
    expect(response.headers).toMatchObject(API_SECURITY_HEADERS)
  })
})

describe('security headers of /docs', () => {
  it('let the page render as HTML under a CSP of its own, which forbids framing it', async () => {
    const response = await server.app.inject({ url: '/docs' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'content-security-policy': DOCS_CSP,
    })
  })

  it('cover the files of the page as well', async () => {
    const page = await server.app.inject({ url: '/docs' })
    const script = /<script src="([^"]+)"/.exec(page.body)?.[1]
    expect(script).toBeDefined()
    const response = await server.app.inject({
      url: new URL(script as string, 'http://localhost/docs').pathname,
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-security-policy']).toBe(DOCS_CSP)
  })
})

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_SECURITY_HEADERS } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

/** The page's own policy: its own files only, no inline script or style, never framed. */
const WEB_CSP =
  "default-src 'self'; base-uri 'none'; script-src 'self'; script-src-attr 'none'; " +
  "style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; " +
  "form-action 'self'; frame-ancestors 'none'"

/** The API's security headers, with the page's CSP; Cache-Control is each file's own. */
const { 'cache-control': _, ...WEB_SECURITY_HEADERS } = {
  ...API_SECURITY_HEADERS,
  'content-security-policy': WEB_CSP,
}

const INDEX =
  '<!doctype html><title>tasklane</title><script type="module" src="/assets/index-AbC123.js"></script>'
const SCRIPT = 'document.title = "ready"\n'

/** A built page as `vite build` writes one: index.html and hashed files under assets/. */
function builtPage(): string {
  const root = mkdtempSync(join(tmpdir(), 'tasklane-web-'))
  mkdirSync(join(root, 'assets'))
  writeFileSync(join(root, 'index.html'), INDEX)
  writeFileSync(join(root, 'assets/index-AbC123.js'), SCRIPT)
  writeFileSync(join(root, 'assets/index-XyZ789.css'), 'body { margin: 0 }\n')
  return root
}

let root: string
let server: TestServer

beforeAll(async () => {
  root = builtPage()
  server = await startServer({ webRoot: root })
})

afterAll(async () => {
  await server?.close()
  rmSync(root, { recursive: true, force: true })
})

describe('GET /', () => {
  it('answers index.html, revalidated on every visit, under the page CSP', async () => {
    const response = await fetch(`${server.url}/`)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe(INDEX)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(Object.fromEntries(response.headers)).toMatchObject(WEB_SECURITY_HEADERS)
  })

  it('answers 304 to a revalidation with the ETag it sent', async () => {
    const first = await fetch(`${server.url}/`)
    const etag = first.headers.get('etag') ?? expect.unreachable()
    const again = await fetch(`${server.url}/`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    const other = await fetch(`${server.url}/`, { headers: { 'if-none-match': '"other"' } })
    expect(other.status).toBe(200)
  })

  it('answers HEAD, and 405 with Allow to another method', async () => {
    expect((await server.app.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200)
    const post = await server.app.inject({ method: 'POST', url: '/' })
    expect(post.statusCode).toBe(405)
    expect(post.headers.allow).toBe('GET, HEAD')
  })
})

describe('GET /assets/…', () => {
  it('answers a hashed file with its type, cached for a year as immutable', async () => {
    const response = await fetch(`${server.url}/assets/index-AbC123.js`)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe(SCRIPT)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(Object.fromEntries(response.headers)).toMatchObject(WEB_SECURITY_HEADERS)
    const css = await fetch(`${server.url}/assets/index-XyZ789.css`)
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
  })

  it.each([
    '/assets/missing.js',
    '/assets/',
    '/assets/../index.html',
    '/assets/%2e%2e%2findex.html',
    '/index.html',
    '/favicon.ico',
  ])('leaves %s to the JSON 404 of the API', async (path) => {
    const response = await server.app.inject({ url: path })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ code: 404, message: expect.stringMatching(/^No route/) })
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('keeps the API under its own headers', async () => {
    const response = await server.app.inject({ url: '/tasks' })
    expect(response.headers).toMatchObject(API_SECURITY_HEADERS)
  })
})

describe('the web page with an API token', () => {
  it('is served without the token, while the API asks for it', async () => {
    const guarded = await startServer({ webRoot: root, settings: { apiToken: 'page-secret' } })
    try {
      expect((await fetch(`${guarded.url}/`)).status).toBe(200)
      expect((await fetch(`${guarded.url}/assets/index-AbC123.js`)).status).toBe(200)
      expect((await fetch(`${guarded.url}/tasks`)).status).toBe(401)
      expect((await fetch(`${guarded.url}/assets/missing.js`)).status).toBe(404)
    } finally {
      await guarded.close()
    }
  })
})

describe('the web page when it is not built', () => {
  it('answers 503 at / saying how to build it, naming no path, and the API works as ever', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'tasklane-web-none-'))
    const bare = await startServer({ webRoot: empty })
    try {
      const response = await bare.app.inject({ url: '/' })
      expect(response.statusCode).toBe(503)
      expect(response.json()).toEqual({
        code: 503,
        message:
          'The web page is not built: run "pnpm build" in the repository. The API works as ever.',
      })
      expect(response.body).not.toContain(empty)
      expect((await bare.app.inject({ url: '/tasks' })).statusCode).toBe(200)
    } finally {
      await bare.close()
      rmSync(empty, { recursive: true, force: true })
    }
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

/** GET `path` as a proxy would forward it for `client`. */
const forwarded = (server: TestServer, path: string, client: string, more = {}) =>
  get(server, path, { headers: { 'x-forwarded-for': client, ...more } })

/** The `client` of the log line of the last request for `url`. */
const loggedClient = (log: Record<string, unknown>[], url: string) =>
  log.filter((line) => line.msg === 'request' && line.url === url).at(-1)?.client

describe('behind a trusted proxy (TRUST_PROXY)', () => {
  const log: Record<string, unknown>[] = []
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({
      log,
      settings: {
        rateLimit: 2,
        trustProxy: ['127.0.0.1'],
        allowedHosts: ['tasks.example.com', '127.0.0.1'],
      },
    })
  })
  afterAll(() => server?.close())

  it('counts the rate limit per client the proxy names, and logs that client', async () => {
    const first = [
      await forwarded(server, '/tasks', '203.0.113.1'),
      await forwarded(server, '/tasks', '203.0.113.1'),
      await forwarded(server, '/tasks', '203.0.113.1'),
    ]
    expect(first.map((response) => response.status)).toEqual([200, 200, 429])
    expect((await forwarded(server, '/tasks?limit=1', '203.0.113.2')).status).toBe(200)
    expect(loggedClient(log, '/tasks?limit=1')).toBe('203.0.113.2')
  })

  it('names the origin the client used in /openapi.json', async () => {
    const response = await forwarded(server, '/openapi.json', '203.0.113.3', {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'tasks.example.com',
    })
    expect(((await response.json()) as { servers: unknown }).servers).toEqual([
      { url: 'https://tasks.example.com', description: 'This server' },
    ])
  })
})

describe('without TRUST_PROXY (the default)', () => {
  const log: Record<string, unknown>[] = []
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ log, settings: { rateLimit: 2 } })
  })
  afterAll(() => server?.close())

  it('believes no X-Forwarded-For: the peer is the client', async () => {
    expect((await forwarded(server, '/tasks', '203.0.113.1')).status).toBe(200)
    expect((await forwarded(server, '/tasks', '203.0.113.2')).status).toBe(200)
    expect((await forwarded(server, '/tasks', '203.0.113.3')).status).toBe(429)
    expect(loggedClient(log, '/tasks')).toBe('127.0.0.1')
  })

  it('names the origin of the Host header in /openapi.json, whatever X-Forwarded-* say', async () => {
    const response = await forwarded(server, '/openapi.json', '203.0.113.4', {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'tasks.example.com',
    })
    expect(((await response.json()) as { servers: unknown }).servers).toEqual([
      { url: server.url, description: 'This server' },
    ])
  })
})

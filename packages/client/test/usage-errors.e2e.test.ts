import { createServer, get } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ConnectionError, createClient, isTasklaneError } from '../src/index.js'

// A real HTTP server on 127.0.0.1 that counts the connections and requests reaching it.
let connections = 0
let requests = 0
const server = createServer((_req, res) => {
  requests++
  res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
})
server.on('connection', () => connections++)
let baseUrl: string

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

/** The global fetch, counting its calls. */
let fetchCalls = 0
const countingFetch: typeof fetch = (input, init) => {
  fetchCalls++
  return fetch(input, init)
}
beforeEach(() => {
  connections = requests = fetchCalls = 0
})

/** Retries on, with waits long enough that a retried call would never end within the test. */
const slowRetry = { maxRetries: 2, initialDelayMs: 60_000 }

describe('a header value fetch cannot send', () => {
  it.each([
    ['a line break (CR LF)', 'abc\r\nx-admin: 1'],
    ['a non-ASCII character (é)', 'caf\u00e9'],
    ['a character beyond Latin-1 (€)', '100\u20ac'],
  ])(
    'in the token (%s): a TypeError naming the header, no request, no retry',
    async (_what, token) => {
      const client = createClient({ baseUrl, fetch: countingFetch, token, retry: slowRetry })
      const error = await client.listTasks().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(TypeError)
      expect(isTasklaneError(error)).toBe(false)
      expect((error as Error).message).toMatch(/^Invalid value for the "authorization" header: /)
      expect((error as Error).message).not.toContain(token)
      expect(requests).toBe(0)
      expect(connections).toBe(0)
      expect(fetchCalls).toBeLessThanOrEqual(1)
    },
  )

  it('from a token function, in a per-call header, for every method', async () => {
    const client = createClient({ baseUrl, token: () => 'a\nb', retry: slowRetry })
    await expect(client.createTask({ name: 'x' })).rejects.toThrow(/"authorization" header/)
    const plain = createClient({ baseUrl, retry: slowRetry })
    await expect(plain.getTask(1, { headers: { 'x-trace': 'é' } })).rejects.toThrow(
      new TypeError(
        'Invalid value for the "x-trace" header: a line break, control or non-ASCII character at index 0. Header values must be printable ASCII.',
      ),
    )
    await expect(plain.exportTasks({ headers: { 'x-trace': '\r' } }).next()).rejects.toThrow(
      TypeError,
    )
    await expect(plain.watch({ headers: { 'x-trace': '\r' } }).next()).rejects.toThrow(TypeError)
    await expect(plain.tasks({ headers: { 'x bad': '1' } }).next()).rejects.toThrow(TypeError)
    expect(requests).toBe(0)
  })

  it('still sends a valid token, and a refused connection is still a ConnectionError', async () => {
    const client = createClient({ baseUrl, token: 'abc.DEF-123_~+/=', retry: false })
    expect(await client.listTasks()).toEqual([])
    expect(requests).toBe(1)
    const dead = createClient({ baseUrl: 'http://127.0.0.1:9', token: 'abc', retry: false })
    await expect(dead.listTasks()).rejects.toBeInstanceOf(ConnectionError)
  })
})

describe('another argument fetch refuses', () => {
  it('is thrown as the TypeError fetch gave, not retried', async () => {
    const client = createClient({
      baseUrl: 'http//no-colon',
      fetch: countingFetch,
      retry: slowRetry,
    })
    const error = await client.listTasks().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(isTasklaneError(error)).toBe(false)
    expect(fetchCalls).toBe(1)
  })
})

describe('a fetch of its own, built on node:http', () => {
  /** GETs over node:http: it rejects with Node's system errors (ECONNREFUSED, ...), not TypeErrors. */
  let calls = 0
  const nodeFetch: typeof fetch = (input) => {
    calls++
    return new Promise((resolve, reject) => {
      get(String(input))
        .once('error', reject)
        .once('response', (res) => {
          res.resume()
          resolve(new Response('[]', { status: res.statusCode ?? 0 }))
        })
    })
  }

  it('has its refused connections taken for ConnectionErrors, and retried', async () => {
    calls = 0
    const client = createClient({
      baseUrl: 'http://127.0.0.1:9',
      fetch: nodeFetch,
      retry: { maxRetries: 2, initialDelayMs: 1 },
    })
    const error = await client.listTasks().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConnectionError)
    expect((error as Error).cause).toMatchObject({ code: 'ECONNREFUSED' })
    expect(calls).toBe(3)
    expect(await createClient({ baseUrl, fetch: nodeFetch }).listTasks()).toEqual([])
  })
})

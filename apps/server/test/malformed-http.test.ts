import { exchange } from '@tasklane/testing/raw-http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_SECURITY_HEADERS, expectError, get, rawPostTask } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

const MALFORMED = 'The request is malformed.'

describe('requests that are not HTTP', () => {
  it('answers a request line that is not HTTP with 400 in the Error shape', async () => {
    const response = await exchange(server.port, 'NOT HTTP AT ALL\r\n\r\n')
    expect(response.statusLine).toBe('HTTP/1.1 400 Bad Request')
    await expectError(response, 400, MALFORMED)
  })

  it('answers headers larger than the limit with 431 in the Error shape', async () => {
    const response = await exchange(
      server.port,
      `GET /tasks HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    )
    expect(response.statusLine).toMatch(/^HTTP\/1\.1 431 /)
    await expectError(response, 431, 'The request headers are too large.')
  })

  it.each([
    ['two different Content-Length headers', ['Content-Length: 12', 'Content-Length: 13']],
    ['a negative Content-Length', ['Content-Length: -1']],
    ['Content-Length with Transfer-Encoding', ['Content-Length: 12', 'Transfer-Encoding: chunked']],
  ])('answers %s with 400 (request smuggling)', async (_, lines) => {
    const request = rawPostTask(['Content-Type: application/json', ...lines], '{"name":"a"}')
    await expectError(await exchange(server.port, request), 400, MALFORMED)
  })

  it('answers a request line over 8 kB (a long query string) with 414, not 431', async () => {
    const response = await exchange(
      server.port,
      `GET /tasks?tag=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    )
    await expectError(response, 414, 'The request URL is too long.')
  })

  it('answers HTTP/1.0 with Transfer-Encoding 400 and closes the connection (faulty framing)', async () => {
    const body = '{"name":"smuggled"}'
    const response = await exchange(
      server.port,
      `POST /task HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    )
    await expectError(response, 400, 'An HTTP/1.0 request must not carry Transfer-Encoding.')
    expect(response.headers.connection).toBe('close')
    expect((await (await get(server, '/tasks')).json()) as unknown[]).toEqual([])
  })

  it('answers two Authorization headers 400 rather than reading the first', async () => {
    const response = await exchange(
      server.port,
      'GET /tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\nConnection: close\r\n\r\n',
    )
    await expectError(response, 400, 'The request must carry at most one Authorization header.')
  })

  it('answers an unknown Expect 417 in the Error shape, with a request id', async () => {
    const response = await exchange(
      server.port,
      'GET /tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n',
    )
    await expectError(
      response,
      417,
      'The expectation "200-ok" is not supported; only 100-continue is.',
    )
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(Object.keys(response.headers)).toEqual(
      expect.arrayContaining(Object.keys(API_SECURITY_HEADERS)),
    )
  })

  it('keeps serving after them', async () => {
    expect((await get(server, '/health/live')).status).toBe(200)
  })
})

describe('requests without exactly one Host header', () => {
  it.each([
    ['no Host header', 'GET /tasks HTTP/1.1\r\nConnection: close\r\n\r\n'],
    ['two Host headers', 'GET /tasks HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n'],
  ])('returns 400 in the Error shape for %s', async (_, request) => {
    await expectError(
      await exchange(server.port, request),
      400,
      'The request must carry exactly one Host header.',
    )
  })

  it('accepts an HTTP/1.0 request without Host, as HTTP/1.0 allows', async () => {
    const response = await exchange(server.port, 'GET /tasks?limit=0 HTTP/1.0\r\n\r\n')
    expect(response.status).toBe(200)
    expect(response.body).toBe('[]')
  })
})

describe('URL paths the router cannot take', () => {
  it.each([
    [
      'a path segment over 384 characters',
      `/tasks/${'9'.repeat(385)}`,
      414,
      'A segment of the URL path is longer than 384 characters.',
    ],
    ['a bad percent-escape', '/tasks/%zz', 400, 'The URL path is not valid percent-encoding.'],
  ])(
    'answers %s in the Error shape, with the API security headers',
    async (_, path, status, message) => {
      const response = await get(server, path)
      expect(Object.fromEntries(response.headers)).toMatchObject(API_SECURITY_HEADERS)
      await expectError(response, status, message)
    },
  )

  it('answers a raw request for a path segment over 384 characters 414 with exactly { code, message }', async () => {
    const response = await exchange(
      server.port,
      `GET /tasks/${'9'.repeat(385)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    )
    expect(response.status).toBe(414)
    // Fastify's own body would add "error"; only the two keys of the Error shape may appear.
    expect(Object.keys(JSON.parse(response.body)).sort()).toEqual(['code', 'message'])
    await expectError(response, 414, 'A segment of the URL path is longer than 384 characters.')
  })

  it('accepts a path segment of exactly 384 characters', async () => {
    await expectError(
      await get(server, `/tasks/${'0'.repeat(383)}1`),
      404,
      `Task 1 does not exist.`,
    )
  })
})

import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, get, startServer, type TestServer } from './helpers.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

/** Writes raw bytes to the server and returns everything it sends back until it closes. */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1')
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      received += chunk
    })
    socket.on('end', () => resolve(received))
    socket.on('error', reject)
    socket.write(bytes)
  })
}

/** Splits a raw HTTP/1.1 response into status line, lower-cased headers and body. */
function parseRaw(text: string) {
  const [head = '', body = ''] = text.split('\r\n\r\n')
  const [statusLine = '', ...lines] = head.split('\r\n')
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':')
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
    }),
  )
  return { statusLine, headers, body }
}

describe('unknown routes', () => {
  it('returns 404 with the Error shape for an unknown path', async () => {
    await expectError(await get(server, '/nope'), 404, 'No route matches GET /nope.')
  })

  it('names the path without its query string', async () => {
    await expectError(
      await get(server, '/nope/deeper?x=1'),
      404,
      'No route matches GET /nope/deeper.',
    )
  })

  it('returns 404 for POST to an unknown path', async () => {
    await expectError(
      await fetch(`${server.url}/tasks/1/done`, { method: 'POST' }),
      404,
      'No route matches POST /tasks/1/done.',
    )
  })
})

describe('wrong method', () => {
  it.each([
    ['DELETE', '/tasks', 'GET, HEAD', 'GET or HEAD'],
    ['POST', '/tasks', 'GET, HEAD', 'GET or HEAD'],
    ['PUT', '/tasks', 'GET, HEAD', 'GET or HEAD'],
    ['GET', '/task', 'POST', 'POST'],
    ['DELETE', '/task', 'POST', 'POST'],
    ['DELETE', '/tasks/1', 'GET, HEAD', 'GET or HEAD'],
    ['PATCH', '/tasks/1', 'GET, HEAD', 'GET or HEAD'],
  ])('returns 405 for %s %s with Allow: %s', async (method, path, allow, words) => {
    const response = await fetch(`${server.url}${path}`, { method })
    expect(response.headers.get('allow')).toBe(allow)
    await expectError(response, 405, `Method ${method} is not allowed on ${path}; use ${words}.`)
  })
})

describe('malformed HTTP', () => {
  it('answers a request line that is not HTTP with 400 in the Error shape', async () => {
    const { statusLine, headers, body } = parseRaw(await rawExchange('NOT HTTP AT ALL\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(headers['content-type']).toBe('application/json; charset=utf-8')
    expect(JSON.parse(body)).toEqual({ code: 400, message: 'The request is malformed.' })
  })

  it('answers headers larger than the limit with 431 in the Error shape', async () => {
    const { statusLine, headers, body } = parseRaw(
      await rawExchange(`GET /tasks HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    )
    expect(statusLine).toMatch(/^HTTP\/1\.1 431 /)
    expect(headers['content-type']).toBe('application/json; charset=utf-8')
    expect(JSON.parse(body)).toEqual({ code: 431, message: 'The request headers are too large.' })
  })

  it('keeps serving after a malformed request', async () => {
    const response = await get(server, '/health/live')
    expect(response.status).toBe(200)
  })
})

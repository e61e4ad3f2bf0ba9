import { exchange } from '@tasklane/testing/raw-http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redactedUrl } from '../src/plugins/request-log.js'
import { get } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

const log: Record<string, unknown>[] = []
let server: TestServer

beforeAll(async () => {
  server = await startServer({ log, logLevel: 'debug' })
})

afterAll(() => server?.close())

/** The request line of the request to `url` (as logged). */
const lineOf = (url: string) =>
  log.find((entry) => entry.msg === 'request' && entry.url === url) ??
  expect.unreachable(`no request line for ${url} in ${JSON.stringify(log)}`)

describe('the request log at debug level', () => {
  it('never writes a credential: Authorization, Proxy-Authorization, X-Api-Key, or a token in the query', async () => {
    await get(server, '/tasks?access_token=query-secret&limit=1', {
      headers: {
        authorization: 'Bearer bearer-secret',
        'proxy-authorization': 'Basic proxy-secret',
        'x-api-key': 'key-secret',
      },
    })
    const line = lineOf('/tasks?access_token=***&limit=1')
    expect(line.url).toBe('/tasks?access_token=***&limit=1')
    expect(line.headers).toMatchObject({
      authorization: '[Redacted]',
      'proxy-authorization': '[Redacted]',
      'x-api-key': '[Redacted]',
    })
    expect(JSON.stringify(log)).not.toMatch(/secret/)
  })

  it('never writes the credential headers other APIs use: X-Auth-Token, X-Access-Token, Api-Key', async () => {
    await get(server, '/tasks?limit=2', {
      headers: {
        'x-auth-token': 'auth-secret',
        'x-access-token': 'access-secret',
        'api-key': 'api-secret',
      },
    })
    const line = lineOf('/tasks?limit=2')
    expect(line.headers).toMatchObject({
      'x-auth-token': '[Redacted]',
      'x-access-token': '[Redacted]',
      'api-key': '[Redacted]',
    })
    expect(JSON.stringify(line)).not.toMatch(/secret/)
  })

  it('never writes a credential whose parameter name is percent-encoded', async () => {
    await get(server, '/tasks?tok%65n=encoded-secret&limit=3')
    expect(lineOf('/tasks?tok%65n=***&limit=3')).toBeDefined()
    expect(JSON.stringify(log)).not.toMatch(/encoded-secret/)
  })

  // A terminal that shows the log may act on C1 controls (U+009B starts an escape
  // sequence), and U+2028/U+2029 end a line in JavaScript and some viewers.
  it('escapes C1 control characters and U+2028/U+2029 in the headers it writes', async () => {
    const response = await server.app.inject({
      url: '/tasks?limit=4',
      headers: { 'x-note': 'a\u0085b\u009b[31mc\u2028d\u2029e' },
    })
    expect(response.statusCode).toBe(200)
    const headers = lineOf('/tasks?limit=4').headers as Record<string, string>
    expect(headers['x-note']).toBe('a\\u0085b\\u009b[31mc\\u2028d\\u2029e')
  })

  it('escapes the C1 bytes a header brings over the wire (read as Latin-1)', async () => {
    await exchange(server.port, [
      Buffer.concat([
        Buffer.from('GET /tasks?limit=5 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a'),
        Buffer.from([0x9b, 0x85]),
        Buffer.from('b\r\nConnection: close\r\n\r\n'),
      ]),
    ])
    const headers = lineOf('/tasks?limit=5').headers as Record<string, string>
    expect(headers['x-note']).toBe('a\\u009b\\u0085b')
  })

  it.each([
    ['/tasks?token=t&tag=a', '/tasks?token=***&tag=a'],
    ['/tasks?tok%65n=t&tag=a', '/tasks?tok%65n=***&tag=a'],
    ['/tasks?%41PI_KEY=k', '/tasks?%41PI_KEY=***'],
    ['/tasks?access%5Ftoken=t', '/tasks?access%5Ftoken=***'],
    ['/tasks?tag=%E2%82%AC&limit=1', '/tasks?tag=%E2%82%AC&limit=1'],
    ['/tasks?%ZZtoken=t', '/tasks?%ZZtoken=***'],
    ['/tasks?api_key=k&apiKey=k&password=p', '/tasks?api_key=***&apiKey=***&password=***'],
    ['/tasks?tag=tokenish&limit=2', '/tasks?tag=tokenish&limit=2'],
    ['/tasks', '/tasks'],
  ])('masks %s as %s', (url, shown) => {
    expect(redactedUrl(url)).toBe(shown)
  })
})

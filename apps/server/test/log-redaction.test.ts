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

describe('the request log at debug level', () => {
  it('never writes a credential: Authorization, Proxy-Authorization, X-Api-Key, or a token in the query', async () => {
    await get(server, '/tasks?access_token=query-secret&limit=1', {
      headers: {
        authorization: 'Bearer bearer-secret',
        'proxy-authorization': 'Basic proxy-secret',
        'x-api-key': 'key-secret',
      },
    })
    const line = log.find((entry) => entry.msg === 'request') as Record<string, unknown>
    expect(line.url).toBe('/tasks?access_token=***&limit=1')
    expect(line.headers).toMatchObject({
      authorization: '[Redacted]',
      'proxy-authorization': '[Redacted]',
      'x-api-key': '[Redacted]',
    })
    expect(JSON.stringify(log)).not.toMatch(/secret/)
  })

  it.each([
    ['/tasks?token=t&tag=a', '/tasks?token=***&tag=a'],
    ['/tasks?api_key=k&apiKey=k&password=p', '/tasks?api_key=***&apiKey=***&password=***'],
    ['/tasks?tag=tokenish&limit=2', '/tasks?tag=tokenish&limit=2'],
    ['/tasks', '/tasks'],
  ])('masks %s as %s', (url, shown) => {
    expect(redactedUrl(url)).toBe(shown)
  })
})

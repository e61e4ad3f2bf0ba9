import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, get } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

describe('an unknown path', () => {
  it('returns 404 in the Error shape', async () => {
    await expectError(await get(server, '/nope'), 404, 'No route matches GET "/nope".')
  })

  it('names the path without its query string', async () => {
    await expectError(
      await get(server, '/nope/deeper?x=1'),
      404,
      'No route matches GET "/nope/deeper".',
    )
  })

  it('returns 404 for a POST too', async () => {
    await expectError(
      await fetch(`${server.url}/tasks/1/done`, { method: 'POST' }),
      404,
      'No route matches POST "/tasks/1/done".',
    )
  })
})

describe('/tasks/ (a trailing slash, no id)', () => {
  it.each(['/tasks/', '/tasks/?x=1', '/tasks/?limit=1'])(
    'GET %s returns 404 naming the path, not a complaint about the id',
    async (path) => {
      await expectError(await get(server, path), 404, 'No route matches GET "/tasks/".')
    },
  )

  it('POST /tasks/ returns 404, not 405', async () => {
    await expectError(
      await fetch(`${server.url}/tasks/`, { method: 'POST' }),
      404,
      'No route matches POST "/tasks/".',
    )
  })

  it.each(['PATCH', 'DELETE'])(
    '%s /tasks/ returns 404, before any check of its Content-Type',
    async (method) => {
      await expectError(
        await fetch(`${server.url}/tasks/`, { method }),
        404,
        `No route matches ${method} "/tasks/".`,
      )
    },
  )

  it('HEAD /tasks/ returns 404 with the length of the message naming HEAD', async () => {
    const response = await fetch(`${server.url}/tasks/`, { method: 'HEAD' })
    expect(response.status).toBe(404)
    const body = JSON.stringify({ code: 404, message: 'No route matches HEAD "/tasks/".' })
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(body)))
  })
})

describe('a path a route takes that holds nothing', () => {
  it.each(['GET', 'HEAD'])(
    'answers %s of a missing file under /docs/static/ 404, not 405',
    async (method) => {
      const response = await fetch(`${server.url}/docs/static/no-such-file.js`, { method })
      expect(response.status).toBe(404)
      if (method === 'GET') {
        await expectError(response, 404, 'Nothing is found at "/docs/static/no-such-file.js".')
      }
    },
  )
})

describe('a known path with another method', () => {
  it.each([
    ['DELETE', '/tasks', 'GET, HEAD', 'GET or HEAD.'],
    ['POST', '/tasks', 'GET, HEAD', 'GET or HEAD. Create a task: POST "/task".'],
    ['PUT', '/tasks', 'GET, HEAD', 'GET or HEAD.'],
    ['GET', '/task', 'POST', 'POST. List tasks in ascending id order: GET "/tasks".'],
    ['DELETE', '/task', 'POST', 'POST.'],
    ['PUT', '/tasks/1', 'GET, HEAD, PATCH, DELETE', 'GET, HEAD, PATCH or DELETE.'],
    ['POST', '/tasks/1', 'GET, HEAD, PATCH, DELETE', 'GET, HEAD, PATCH or DELETE.'],
    // The feed is not a task: the methods of /tasks/{id} are not its own.
    ['POST', '/tasks/events', 'GET, HEAD', 'GET or HEAD.'],
    ['PATCH', '/tasks/events', 'GET, HEAD', 'GET or HEAD.'],
    ['DELETE', '/tasks/events', 'GET, HEAD', 'GET or HEAD.'],
  ])('returns 405 for %s %s with Allow: %s', async (method, path, allow, words) => {
    const response = await fetch(`${server.url}${path}`, { method })
    expect(response.headers.get('allow')).toBe(allow)
    await expectError(response, 405, `Method ${method} is not allowed on "${path}"; use ${words}`)
  })
})

import { describe, expect, it } from 'vitest'
import { ApiError, createClient } from '../src/index.js'

function recordingFetch(response: () => Response) {
  const calls: { url: string; init: RequestInit | undefined }[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init })
    return response()
  }
  return { calls, fetch }
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('createClient', () => {
  it('builds the list URL from limit, after and tag', async () => {
    const { calls, fetch } = recordingFetch(() => json([]))
    const client = createClient({ baseUrl: 'http://h/api/', fetch })
    await client.listTasks(5, { after: 10, tag: 'a b&c' })
    await client.listTasks()
    expect(calls.map((c) => c.url)).toEqual([
      'http://h/api/tasks?limit=5&after=10&tag=a+b%26c',
      'http://h/api/tasks',
    ])
  })

  it('sends the new task as JSON with default and per-call headers', async () => {
    const { calls, fetch } = recordingFetch(() => json({ id: 1, name: 'x' }, 201))
    const client = createClient({ baseUrl: 'http://h', fetch, headers: { 'x-a': '1' } })
    await client.createTask({ name: 'x' }, { headers: { 'x-b': '2' } })
    const init = calls[0]?.init
    expect(init?.method).toBe('POST')
    expect(init?.body).toBe('{"name":"x"}')
    expect(init?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-a': '1',
      'x-b': '2',
    })
  })

  it('describes a non-JSON error response by status, method and URL', async () => {
    const { fetch } = recordingFetch(() => new Response('bad gateway', { status: 502 }))
    const client = createClient({ baseUrl: 'http://h', fetch })
    const error = await client.getTask(3).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      status: 502,
      code: 502,
      body: 'bad gateway',
      message: 'Request failed with status 502: GET http://h/tasks/3',
    })
  })
})

import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AbortError,
  ApiError,
  ConnectionError,
  createClient,
  isApiError,
  isTasklaneError,
  TimeoutError,
} from '../src/index.js'
import { validateResponses } from '../src/validate.js'
import { startServer } from './server.js'

let server: Awaited<ReturnType<typeof startServer>>
let client: ReturnType<typeof createClient>

beforeAll(async () => {
  server = await startServer()
  client = createClient({ baseUrl: server.url })
})
afterAll(() => server.close())

describe('client against a real server', () => {
  it('creates tasks and lists them in id order', async () => {
    const first = await client.createTask({ name: 'Write docs', tag: 'docs' })
    const second = await client.createTask({ name: 'Ship 🚀 任务' })
    expect(first).toEqual({ id: expect.any(Number), name: 'Write docs', tag: 'docs' })
    expect(second).toEqual({ id: first.id + 1, name: 'Ship 🚀 任务' })
    expect('tag' in second).toBe(false)
    expect(await client.listTasks()).toEqual([first, second])
    expect(await client.listTasks(1)).toEqual([first])
    expect(await client.listTasks(0)).toEqual([])
    expect(await client.listTasks(10, { after: first.id })).toEqual([second])
    expect(await client.listTasks(undefined, { tag: 'docs' })).toEqual([first])
    expect(await client.getTask(second.id)).toEqual(second)
  })

  it('throws ApiError with the server status, code and message', async () => {
    const error = await client.getTask(999_999).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(isApiError(error)).toBe(true)
    expect(error).toMatchObject({
      status: 404,
      code: 404,
      message: 'Task 999999 does not exist.',
      method: 'GET',
      url: `${server.url}/tasks/999999`,
      body: { code: 404, message: 'Task 999999 does not exist.' },
    })
  })

  it("puts the server's X-Request-Id on an ApiError, the caller's own when it sent one", async () => {
    const generated = (await client.getTask(999_999).catch((e: unknown) => e)) as ApiError
    expect(generated.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(generated.requestId).toBe(generated.response.headers.get('x-request-id'))
    const traced = createClient({ baseUrl: server.url, headers: { 'x-request-id': 'trace-42' } })
    await expect(traced.getTask(999_999)).rejects.toMatchObject({ requestId: 'trace-42' })
  })

  it('surfaces validation errors from the server', async () => {
    // @ts-expect-error: the contract forbids extra properties; the server does too.
    const error = await client.createTask({ name: 'a', done: true }).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 400, code: 400 })
    expect((error as ApiError).message).toContain('"done"')
    await expect(client.listTasks(-1)).rejects.toMatchObject({ status: 400 })
  })

  it('keeps a path prefix of baseUrl and tolerates a trailing slash', async () => {
    const prefixed = createClient({
      baseUrl: `${server.url}/`,
      fetch: (input, init) => fetch(input, init),
    })
    expect(Array.isArray(await prefixed.listTasks(1))).toBe(true)
  })
})

describe('failures without a response', () => {
  it('throws ConnectionError when nothing listens', async () => {
    const dead = createClient({ baseUrl: 'http://127.0.0.1:9', retry: false })
    const error = await dead.listTasks().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConnectionError)
    expect(isTasklaneError(error)).toBe(true)
    expect(isApiError(error)).toBe(false)
  })

  it('throws TimeoutError when the server is too slow, and AbortError on abort', async () => {
    const slow = createServer((_req, res) => {
      setTimeout(() => res.end('[]'), 2000).unref()
    })
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
    const { port } = slow.address() as AddressInfo
    try {
      const c = createClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 100, retry: false })
      await expect(c.listTasks()).rejects.toBeInstanceOf(TimeoutError)
      const controller = new AbortController()
      const pending = c.listTasks(undefined, { signal: controller.signal, timeoutMs: 0 })
      controller.abort()
      await expect(pending).rejects.toBeInstanceOf(AbortError)
    } finally {
      slow.closeAllConnections()
      slow.close()
    }
  })
})

/**
 * A proxy in front of the real server that forwards every request but, for the first
 * `lose` ones, cuts the connection instead of passing the response back: the server has
 * done the work, the client never hears of it. Records the Idempotency-Key of each request.
 */
async function lossyProxy(target: string, lose: number) {
  const keys: (string | undefined)[] = []
  const proxy = createServer((req, res) => {
    keys.push(req.headers['idempotency-key'] as string | undefined)
    const drop = keys.length <= lose
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers })
    upstream.on('response', (answer) => {
      if (drop) {
        answer.resume()
        answer.on('end', () => res.socket?.destroy())
        return
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port } = proxy.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    close: () => {
      proxy.closeAllConnections()
      proxy.close()
    },
  }
}

describe('retries against a real server', () => {
  it('retries a create whose response was lost without making a second task', async () => {
    const proxy = await lossyProxy(server.url, 2)
    try {
      const flaky = createClient({
        baseUrl: proxy.url,
        retry: { initialDelayMs: 10, maxDelayMs: 20 },
      })
      const before = await client.listTasks()
      const task = await flaky.createTask({ name: 'exactly once', tag: 'retry' })
      expect(proxy.keys).toHaveLength(3)
      expect(proxy.keys[0]).toMatch(/^[0-9a-f-]{36}$/)
      expect(new Set(proxy.keys).size).toBe(1)
      const after = await client.listTasks()
      expect(after).toEqual([...before, task])
      expect(after.filter((t) => t.name === 'exactly once')).toHaveLength(1)
    } finally {
      proxy.close()
    }
  })

  it('without retries, a lost response is a ConnectionError', async () => {
    const proxy = await lossyProxy(server.url, 1)
    try {
      const once = createClient({ baseUrl: proxy.url, retry: false })
      await expect(once.listTasks()).rejects.toBeInstanceOf(ConnectionError)
      expect(proxy.keys).toEqual([undefined])
    } finally {
      proxy.close()
    }
  })
})

describe('tasks() against a real server', () => {
  it('walks every page of a tag, following the Link header', async () => {
    const made = []
    for (let i = 0; i < 5; i++)
      made.push(await client.createTask({ name: `page ${i}`, tag: 'pages' }))
    await client.createTask({ name: 'other tag', tag: 'not-pages' })
    const seen = []
    for await (const task of client.tasks({ tag: 'pages', pageSize: 2 })) seen.push(task)
    expect(seen).toEqual(made)
  })
})

describe('validateResponses against a real server', () => {
  it('accepts what the server sends, including 200 emoji', async () => {
    const checked = createClient({ baseUrl: server.url, validate: validateResponses })
    const task = await checked.createTask({ name: '🚀'.repeat(200), tag: '🏷'.repeat(64) })
    expect(await checked.getTask(task.id)).toEqual(task)
    expect((await checked.listTasks()).at(-1)).toEqual(task)
  })
})

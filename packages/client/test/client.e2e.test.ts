import { createServer } from 'node:http'
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
    const dead = createClient({ baseUrl: 'http://127.0.0.1:9' })
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
      const c = createClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 100 })
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

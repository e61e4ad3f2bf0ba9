import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Task } from '../src/index.js'
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
  return { ...(await listening(proxy)), keys }
}

/** Listens on a free port of 127.0.0.1: its URL, and how to close it with its connections. */
async function listening(proxy: Server) {
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port } = proxy.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
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

/**
 * A proxy in front of the real server that forwards every request and records its
 * Last-Event-ID, but cuts the first response short: after the first event of a feed, or
 * after `cutAfter` bytes of anything else. Data reached the client; the rest never does.
 */
async function cuttingProxy(target: string, cutAfter = Number.POSITIVE_INFINITY) {
  const lastEventIds: (string | undefined)[] = []
  const proxy = createServer((req, res) => {
    lastEventIds.push(req.headers['last-event-id'] as string | undefined)
    const cut = lastEventIds.length === 1
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers })
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      let forwarded = 0
      let done = false
      // Ends the connection once what was written has gone out, without the response's end.
      const hangUp = () => {
        done = true
        answer.destroy()
        res.socket?.end()
      }
      answer.on('data', (chunk: Buffer) => {
        if (done) return
        if (cut && forwarded + chunk.length > cutAfter) {
          res.write(chunk.subarray(0, cutAfter - forwarded))
          return hangUp()
        }
        forwarded += chunk.length
        res.write(chunk)
        if (cut && chunk.toString('utf8').includes('event: task')) hangUp()
      })
      answer.on('end', () => res.end())
    })
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  return { ...(await listening(proxy)), lastEventIds }
}

/** Retries and reconnections without long waits. */
const quickRetry = { initialDelayMs: 10, maxDelayMs: 50 }

/** The id of the newest task now. */
const newestId = async () => (await client.listTasks(1, { order: 'desc' }))[0]?.id ?? 0

/** Collects what `watch` yields until `count` tasks have come, then aborts it. */
function collect(watching: (signal: AbortSignal) => AsyncGenerator<Task>, count: number) {
  const stop = new AbortController()
  const seen: Task[] = []
  const done = (async () => {
    for await (const task of watching(stop.signal)) {
      seen.push(task)
      if (seen.length === count) stop.abort()
    }
  })()
  return { seen, done }
}

describe('newest first, and exportTasks(), against a real server', () => {
  it('lists, walks and exports a tag in either order', async () => {
    const made: Task[] = []
    for (let i = 0; i < 5; i++)
      made.push(await client.createTask({ name: `order ${i}`, tag: 'order' }))
    const newestFirst = [...made].reverse()
    expect(await client.listTasks(2, { tag: 'order', order: 'desc' })).toEqual(
      newestFirst.slice(0, 2),
    )
    expect(
      await client.listTasks(undefined, { tag: 'order', order: 'desc', before: made[2]?.id }),
    ).toEqual([made[1], made[0]])
    const walked: Task[] = []
    for await (const task of client.tasks({ tag: 'order', order: 'desc', pageSize: 2 })) {
      walked.push(task)
    }
    expect(walked).toEqual(newestFirst)
    for (const [order, expected] of [
      ['asc', made],
      ['desc', newestFirst],
    ] as const) {
      const exported: Task[] = []
      for await (const task of client.exportTasks({ tag: 'order', order })) exported.push(task)
      expect(exported).toEqual(expected)
    }
  })

  it('resumes an export that the network cut off, yielding each task once', async () => {
    const made: Task[] = []
    for (let i = 0; i < 40; i++) {
      made.push(await client.createTask({ name: `export ${i} ${'x'.repeat(180)}`, tag: 'export' }))
    }
    const proxy = await cuttingProxy(server.url, 3_000)
    try {
      const flaky = createClient({ baseUrl: proxy.url, retry: quickRetry })
      const exported: Task[] = []
      for await (const task of flaky.exportTasks({ tag: 'export' })) exported.push(task)
      expect(exported).toEqual(made)
      expect(proxy.lastEventIds).toHaveLength(2)
    } finally {
      proxy.close()
    }
  })
})

describe('watch() against a real server', () => {
  it('yields new tasks of its tag in order, and ends cleanly when the signal aborts', async () => {
    const after = await newestId()
    const { seen, done } = collect((signal) => client.watch({ after, tag: 'live', signal }), 3)
    const made = [
      await client.createTask({ name: 'live 1', tag: 'live' }),
      await client.createTask({ name: 'not followed' }),
      await client.createTask({ name: 'live 2', tag: 'live' }),
      await client.createTask({ name: 'live 3', tag: 'live' }),
    ]
    await done
    expect(seen).toEqual([made[0], made[2], made[3]])
  })

  it('starts with the backlog after `after`', async () => {
    const made = [
      await client.createTask({ name: 'backlog 1' }),
      await client.createTask({ name: 'backlog 2' }),
    ]
    const { seen, done } = collect(
      (signal) => client.watch({ after: (made[0] as Task).id - 1, signal }),
      2,
    )
    await done
    expect(seen).toEqual(made)
  })

  it('reconnects after the connection drops, sending Last-Event-ID, with no gap and no repeat', async () => {
    const proxy = await cuttingProxy(server.url)
    try {
      const after = await newestId()
      const flaky = createClient({ baseUrl: proxy.url, retry: quickRetry })
      const { seen, done } = collect((signal) => flaky.watch({ after, signal }), 3)
      const made = [
        await client.createTask({ name: 'before the drop' }),
        await client.createTask({ name: 'around the drop' }),
        await client.createTask({ name: 'after the drop' }),
      ]
      await done
      expect(seen).toEqual(made)
      expect(proxy.lastEventIds[0]).toBe(String(after))
      expect(proxy.lastEventIds[1]).toBe(String(made[0]?.id))
    } finally {
      proxy.close()
    }
  })

  // Two server processes start from source here: more than the default 5 s on a busy machine.
  it('goes on after the server restarts, with no gap', { timeout: 60_000 }, async () => {
    const own = await startServer()
    let again: Awaited<ReturnType<typeof startServer>> | undefined
    try {
      const ownClient = createClient({ baseUrl: own.url, retry: quickRetry })
      const first = await ownClient.createTask({ name: 'before the restart' })
      const { seen, done } = collect((signal) => ownClient.watch({ after: 0, signal }), 2)
      while (seen.length < 1) await new Promise((resolve) => setTimeout(resolve, 10))
      // The stream ends with the server; the client retries until it is back.
      await own.stop()
      again = await startServer({ restart: own.place })
      const second = await ownClient.createTask({ name: 'after the restart' })
      await done
      expect(seen).toEqual([first, second])
    } finally {
      await again?.close()
    }
  })
})

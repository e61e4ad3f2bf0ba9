// The client against a real server: over 300 lines because each method and each failure
// it must map (HTTP errors, cut connections, retries) is a test of its own.
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Task, TaskEvent } from '../src/index.js'
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
import { cuttingProxy, lossyProxy } from './proxies.js'

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
    expect(first).toEqual({
      id: expect.any(Number),
      // Open mode: every caller is the admin `local`; a task goes to the first list.
      listId: 1,
      name: 'Write docs',
      tag: 'docs',
      status: 'open',
      // Planning: no priority is 0, and a new task goes last in its list's manual order.
      priority: 0,
      position: expect.stringMatching(/^[0-9A-Za-z]+$/),
      version: 1,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      createdBy: 'local',
      updatedAt: first.createdAt,
      updatedBy: 'local',
    })
    expect(second).toMatchObject({ id: first.id + 1, name: 'Ship 🚀 任务' })
    expect('tag' in second).toBe(false)
    expect(await client.listTasks()).toEqual([first, second])
    expect(await client.listTasks(1)).toEqual([first])
    expect(await client.listTasks(0)).toEqual([])
    expect(await client.listTasks(10, { after: first.id })).toEqual([second])
    expect(await client.listTasks(undefined, { tag: 'docs' })).toEqual([first])
    expect(await client.getTask(second.id)).toEqual(second)
  })

  it('acts as the admin `local` on a server without credentials, where tokens are refused', async () => {
    expect(await client.me()).toEqual({ principal: 'local', role: 'admin', roles: [] })
    const [first] = await client.listLists()
    expect(first).toMatchObject({ id: 1, name: 'Tasks', version: 1 })
    const refused = await client.createToken({ name: 'CI' }).catch((e: unknown) => e)
    expect(refused).toMatchObject({ name: 'ApiError', status: 409 })
    expect((refused as ApiError).message).toContain('API_TOKEN')
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

/** Retries and reconnections without long waits. */
const quickRetry = { initialDelayMs: 10, maxDelayMs: 50 }

/** The newest seq of the server at `url` now, from an empty listing's Tasklane-Seq. */
const newestSeq = async (url = server.url) =>
  Number((await fetch(`${url}/tasks?limit=0`)).headers.get('tasklane-seq'))

/** Collects what `watch` yields until `count` events have come, then aborts it. */
function collect(watching: (signal: AbortSignal) => AsyncGenerator<TaskEvent>, count: number) {
  const stop = new AbortController()
  const seen: TaskEvent[] = []
  const done = (async () => {
    for await (const event of watching(stop.signal)) {
      seen.push(event)
      if (seen.length === count) stop.abort()
    }
  })()
  return { seen, done, tasks: () => seen.map((event) => event.task) }
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
      // Random names: the server compresses a large listing, and repeated ones would shrink
      // it below the proxy's cut.
      const name = `export ${i} ${randomBytes(90).toString('hex')}`
      made.push(await client.createTask({ name, tag: 'export' }))
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
  it('yields the changes of its tag in order, with their seqs, and ends cleanly when the signal aborts', async () => {
    const after = await newestSeq()
    const { seen, done } = collect((signal) => client.watch({ after, tag: 'live', signal }), 4)
    const one = await client.createTask({ name: 'live 1', tag: 'live' })
    await client.createTask({ name: 'not followed' })
    const two = await client.createTask({ name: 'live 2', tag: 'live' })
    const done1 = await client.completeTask(one.id)
    await client.updateTask(two.id, { tag: null })
    await done
    expect(seen).toEqual([
      { type: 'created', seq: after + 1, task: one },
      { type: 'created', seq: after + 3, task: two },
      { type: 'updated', seq: after + 4, task: done1 },
      // Retagged away: gone from this view.
      { type: 'deleted', seq: after + 5, task: { id: two.id, version: 2 } },
    ])
  })

  it('follows a status: a task done leaves the open view, reopened it enters it again', async () => {
    const after = await newestSeq()
    const { seen, done } = collect((signal) => client.watch({ after, status: 'open', signal }), 3)
    const task = await client.createTask({ name: 'tick' })
    await client.completeTask(task.id)
    const reopened = await client.reopenTask(task.id)
    await done
    expect(seen.map((event) => [event.type, event.task])).toEqual([
      ['created', task],
      ['deleted', { id: task.id, version: 2 }],
      ['created', reopened],
    ])
  })

  it('starts with the backlog after `after`: each changed task once, deleted ones as deleted', async () => {
    const after = await newestSeq()
    const made = [
      await client.createTask({ name: 'backlog 1' }),
      await client.createTask({ name: 'backlog 2' }),
    ]
    const renamed = await client.updateTask((made[0] as Task).id, { name: 'backlog 1 renamed' })
    await client.deleteTask((made[1] as Task).id)
    const { seen, done } = collect((signal) => client.watch({ after, signal }), 2)
    await done
    expect(seen).toEqual([
      { type: 'updated', seq: after + 3, task: renamed },
      { type: 'deleted', seq: after + 4, task: { id: made[1]?.id, version: 1 } },
    ])
  })

  it('starts with new changes only without `after`', async () => {
    await client.createTask({ name: 'before the watch' })
    let connected = () => {}
    const feedOpen = new Promise<void>((resolve) => {
      connected = resolve
    })
    const watcher = createClient({
      baseUrl: server.url,
      fetch: async (input, init) => {
        const response = await fetch(input, init)
        if (String(input).includes('/tasks/events')) connected()
        return response
      },
    })
    const { seen, done } = collect((signal) => watcher.watch({ signal }), 1)
    // It reads the newest seq, then connects: what comes after is new.
    await feedOpen
    const task = await client.createTask({ name: 'after the watch' })
    await done
    expect(seen.map((event) => event.task)).toEqual([task])
  })

  it('reconnects after the connection drops, sending Last-Event-ID, with no gap and no repeat', async () => {
    const proxy = await cuttingProxy(server.url)
    try {
      const after = await newestSeq()
      const flaky = createClient({ baseUrl: proxy.url, retry: quickRetry })
      const { seen, done, tasks } = collect((signal) => flaky.watch({ after, signal }), 3)
      const made = [
        await client.createTask({ name: 'before the drop' }),
        await client.createTask({ name: 'around the drop' }),
        await client.createTask({ name: 'after the drop' }),
      ]
      await done
      expect(tasks()).toEqual(made)
      expect(proxy.lastEventIds[0]).toBe(String(after))
      expect(proxy.lastEventIds[1]).toBe(String(seen[0]?.seq))
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
      const { seen, done, tasks } = collect((signal) => ownClient.watch({ after: 0, signal }), 2)
      while (seen.length < 1) await new Promise((resolve) => setTimeout(resolve, 10))
      // The stream ends with the server; the client retries until it is back.
      await own.stop()
      again = await startServer(own.place)
      const second = await ownClient.createTask({ name: 'after the restart' })
      await done
      expect(tasks()).toEqual([first, second])
    } finally {
      await again?.close()
    }
  })
})

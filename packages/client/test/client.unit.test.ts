// The client's behaviour against a stubbed fetch (where a real server cannot produce the
// case): over 300 lines because each error mapping and retry rule is a test of its own.
import { describe, expect, it, vi } from 'vitest'
import {
  AbortError,
  ApiError,
  ConnectionError,
  createClient,
  isApiError,
  type Task,
  type TaskEvent,
  ValidationError,
} from '../src/index.js'
import { validateResponses } from '../src/validate.js'
import { error, fast, json, life, recordingFetch, streamed } from './fake-fetch.js'

describe('createClient', () => {
  it('builds the list URL from limit, after, before, order and tag', async () => {
    const { calls, fetch } = recordingFetch(() => json([]))
    const client = createClient({ baseUrl: 'http://h/api/', fetch })
    await client.listTasks(5, { after: 10, tag: 'a b&c' })
    await client.listTasks()
    await client.listTasks(2, { before: 9, order: 'desc' })
    expect(calls.map((c) => c.url)).toEqual([
      'http://h/api/tasks?limit=5&after=10&tag=a+b%26c',
      'http://h/api/tasks',
      'http://h/api/tasks?limit=2&before=9&order=desc',
    ])
    await client.listTasks(3, { list: 2, status: 'open' })
    expect(calls[3]?.url).toBe('http://h/api/tasks?limit=3&status=open&list=2')
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
    const client = createClient({ baseUrl: 'http://h', fetch, retry: false })
    const error = await client.getTask(3).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      status: 502,
      code: 502,
      body: 'bad gateway',
      message: 'Request failed with status 502: GET http://h/tasks/3',
    })
  })

  it.each([
    ['null', 'null'],
    ['a number', '42'],
    ['an array', '[1]'],
    ['an object without message', '{"code":500}'],
    ['a message that is not a string', '{"code":500,"message":7}'],
  ])('throws an ApiError, not a TypeError, for a JSON error body that is %s', async (_, text) => {
    const { fetch } = recordingFetch(
      () => new Response(text, { status: 500, headers: { 'content-type': 'application/json' } }),
    )
    const client = createClient({ baseUrl: 'http://h', fetch, retry: false })
    const error = await client.listTasks().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      status: 500,
      code: 500,
      body: JSON.parse(text),
      message: 'Request failed with status 500: GET http://h/tasks',
    })
  })
})

describe('token', () => {
  it('sends a static token as a Bearer Authorization header', async () => {
    const { calls, fetch } = recordingFetch(() => json([]))
    await createClient({ baseUrl: 'http://h', fetch, token: 's3cret' }).listTasks()
    expect(calls[0]?.headers.authorization).toBe('Bearer s3cret')
  })

  it('asks a token function before every attempt', async () => {
    const { calls, fetch } = recordingFetch((call) => (call === 0 ? error(503) : json([])))
    let issued = 0
    const client = createClient({
      baseUrl: 'http://h',
      fetch,
      retry: fast,
      token: async () => `t${++issued}`,
    })
    await client.listTasks()
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2'])
  })

  it('asks a token function once more after a 401 and sends the request again, once', async () => {
    const { calls, fetch } = recordingFetch((call) => (call === 0 ? error(401) : json([])))
    let issued = 0
    const token = () => `t${++issued}`
    await createClient({ baseUrl: 'http://h', fetch, token, retry: false }).listTasks()
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2'])

    // A 401 means the server did nothing: even a call that is never retried is sent again.
    const refused = recordingFetch(() => error(401))
    issued = 0
    const client = createClient({ baseUrl: 'http://h', fetch: refused.fetch, token })
    const create = client.createTask({ name: 'x' }, { retry: false })
    await expect(create).rejects.toMatchObject({ status: 401 })
    expect(refused.calls.map((c) => c.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2'])
    expect(refused.calls.map((c) => c.headers['idempotency-key'])).toEqual([undefined, undefined])
  })

  it('does not send a request again after a 401 with a string token', async () => {
    const { calls, fetch } = recordingFetch(() => error(401))
    const client = createClient({ baseUrl: 'http://h', fetch, token: 'old' })
    await expect(client.listTasks()).rejects.toMatchObject({ status: 401 })
    expect(calls).toHaveLength(1)
  })

  it('sends no Authorization header without a token', async () => {
    const { calls, fetch } = recordingFetch(() => json([]))
    await createClient({ baseUrl: 'http://h', fetch }).listTasks()
    expect(calls[0]?.headers).not.toHaveProperty('authorization')
  })
})

describe('retries', () => {
  it.each([408, 429, 500, 502, 503, 504])(
    'retries a GET that got %i, then succeeds',
    async (status) => {
      const { calls, fetch } = recordingFetch((call) => (call < 2 ? error(status) : json([])))
      const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
      expect(await client.listTasks()).toEqual([])
      expect(calls).toHaveLength(3)
    },
  )

  it('retries a network failure and gives up after maxRetries with the last error', async () => {
    let attempts = 0
    const fetch = async () => {
      attempts++
      throw new TypeError('fetch failed')
    }
    const client = createClient({ baseUrl: 'http://h', fetch, retry: { ...fast, maxRetries: 3 } })
    await expect(client.getTask(1)).rejects.toBeInstanceOf(ConnectionError)
    expect(attempts).toBe(4)
  })

  it('stops after maxRetries and throws the last ApiError', async () => {
    const { calls, fetch } = recordingFetch(() => error(503))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    await expect(client.listTasks()).rejects.toMatchObject({ status: 503 })
    expect(calls).toHaveLength(3)
  })

  it.each([400, 401, 404, 409, 413, 422, 501])('does not retry a %i', async (status) => {
    const { calls, fetch } = recordingFetch(() => error(status))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    await expect(client.getTask(1)).rejects.toMatchObject({ status })
    expect(calls).toHaveLength(1)
  })

  it('can be switched off for the client and back on for one call', async () => {
    const { calls, fetch } = recordingFetch((call) => (call < 2 ? error(503) : json([])))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: false })
    await expect(client.listTasks()).rejects.toMatchObject({ status: 503 })
    expect(calls).toHaveLength(1)
    expect(await client.listTasks(undefined, { retry: fast })).toEqual([])
    expect(calls).toHaveLength(3)
  })

  it('can be switched off for one call', async () => {
    const { calls, fetch } = recordingFetch(() => error(503))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    await expect(client.listTasks(undefined, { retry: false })).rejects.toMatchObject({
      status: 503,
    })
    expect(calls).toHaveLength(1)
  })

  it('waits as long as Retry-After says', async () => {
    const { calls, fetch } = recordingFetch((call) =>
      call === 0 ? error(429, { 'retry-after': '1' }) : json([]),
    )
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    const started = performance.now()
    await client.listTasks()
    expect(performance.now() - started).toBeGreaterThanOrEqual(950)
    expect(calls).toHaveLength(2)
  })

  it('fails at once when Retry-After is longer than maxRetryAfterMs', async () => {
    const { calls, fetch } = recordingFetch(() => error(503, { 'retry-after': '3600' }))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    const started = performance.now()
    await expect(client.listTasks()).rejects.toMatchObject({ status: 503 })
    expect(calls).toHaveLength(1)
    expect(performance.now() - started).toBeLessThan(500)
  })

  it('backs off exponentially between attempts', async () => {
    // On a simulated clock: the waits are the client's, whatever the machine's load.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      const times: number[] = []
      const { fetch } = recordingFetch(() => {
        times.push(Date.now())
        return error(500)
      })
      const client = createClient({
        baseUrl: 'http://h',
        fetch,
        retry: { maxRetries: 2, initialDelayMs: 100, maxDelayMs: 1000 },
      })
      const failed = expect(client.listTasks()).rejects.toMatchObject({ status: 500 })
      await vi.runAllTimersAsync()
      await failed
      const [a = 0, b = 0, c = 0] = times
      expect(times).toHaveLength(3)
      // Jitter keeps each wait within 50–100% of 100 ms, then of 200 ms.
      expect(b - a).toBeGreaterThanOrEqual(50)
      expect(b - a).toBeLessThanOrEqual(100)
      expect(c - b).toBeGreaterThanOrEqual(100)
      expect(c - b).toBeLessThanOrEqual(200)
    } finally {
      vi.useRealTimers()
    }
  })

  it('rejects with AbortError when aborted while waiting to retry', async () => {
    const { calls, fetch } = recordingFetch(() => error(503))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: { initialDelayMs: 10_000 } })
    const controller = new AbortController()
    const pending = client.listTasks(undefined, { signal: controller.signal })
    setTimeout(() => controller.abort(), 20)
    const started = performance.now()
    await expect(pending).rejects.toBeInstanceOf(AbortError)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(calls).toHaveLength(1)
  })
})

describe('createTask and Idempotency-Key', () => {
  it('retries a create with the same generated key on every attempt', async () => {
    const { calls, fetch } = recordingFetch((call) =>
      call < 2 ? error(503) : json({ id: 7, name: 'x' }, 201),
    )
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    expect(await client.createTask({ name: 'x' })).toEqual({ id: 7, name: 'x' })
    const keys = calls.map((c) => c.headers['idempotency-key'])
    expect(keys).toHaveLength(3)
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set(keys).size).toBe(1)
  })

  it('generates a new key for each call', async () => {
    const { calls, fetch } = recordingFetch(() => json({ id: 1, name: 'x' }, 201))
    const client = createClient({ baseUrl: 'http://h', fetch })
    await client.createTask({ name: 'x' })
    await client.createTask({ name: 'x' })
    const [first, second] = calls.map((c) => c.headers['idempotency-key'])
    expect(first).toBeTypeOf('string')
    expect(first).not.toBe(second)
  })

  it("uses the caller's key, and retries 409 (the first attempt still in flight)", async () => {
    const { calls, fetch } = recordingFetch((call) =>
      call === 0 ? error(409) : json({ id: 1, name: 'x' }, 201),
    )
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    await client.createTask({ name: 'x' }, { idempotencyKey: 'order-42' })
    expect(calls.map((c) => c.headers['idempotency-key'])).toEqual(['order-42', 'order-42'])
  })

  it('neither sends a key nor retries when retries are off', async () => {
    const { calls, fetch } = recordingFetch(() => error(503))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: false })
    await expect(client.createTask({ name: 'x' })).rejects.toMatchObject({ status: 503 })
    expect(calls).toHaveLength(1)
    expect(calls[0]?.headers).not.toHaveProperty('idempotency-key')
  })

  it('does not retry a 409 of a GET, which has no key', async () => {
    const { calls, fetch } = recordingFetch(() => error(409))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    await expect(client.listTasks()).rejects.toMatchObject({ status: 409 })
    expect(calls).toHaveLength(1)
  })
})

describe('tasks() pagination', () => {
  const all: Task[] = Array.from({ length: 7 }, (_, i) => ({
    ...life,
    id: i + 1,
    name: `t${i + 1}`,
  }))

  /** Pages of `all` like the server: a Link to the next page when a full page has more. */
  function pagingFetch({ link = true } = {}) {
    return recordingFetch((_call, url) => {
      const query = new URL(url).searchParams
      const limit = Number(query.get('limit'))
      const after = Number(query.get('after') ?? 0)
      const page = all.filter((t) => t.id > after).slice(0, limit)
      const last = page.at(-1)
      const more = last !== undefined && all.some((t) => t.id > last.id) && page.length === limit
      // Like the server's, the Link carries every filter along with the cursor.
      const tag = query.has('tag') ? `&tag=${query.get('tag')}` : ''
      const headers: Record<string, string> =
        link && more ? { link: `</tasks?limit=${limit}&after=${last.id}${tag}>; rel="next"` } : {}
      return json(page, 200, headers)
    })
  }

  it('walks every page following the Link header', async () => {
    const { calls, fetch } = pagingFetch()
    const client = createClient({ baseUrl: 'http://h/api', fetch })
    const seen: Task[] = []
    for await (const task of client.tasks({ pageSize: 3, tag: 'x' })) seen.push(task)
    expect(seen).toEqual(all)
    expect(calls.map((c) => c.url)).toEqual([
      'http://h/api/tasks?limit=3&tag=x',
      'http://h/api/tasks?limit=3&after=3&tag=x',
      'http://h/api/tasks?limit=3&after=6&tag=x',
    ])
  })

  it('ends at a full page without a Link once Links have been seen', async () => {
    const { calls, fetch } = pagingFetch()
    const client = createClient({ baseUrl: 'http://h', fetch })
    const seen: number[] = []
    for await (const task of client.tasks({ pageSize: 1 })) seen.push(task.id)
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(calls).toHaveLength(7)
  })

  it('checks once more after a full first page without a Link', async () => {
    const { calls, fetch } = pagingFetch()
    const client = createClient({ baseUrl: 'http://h', fetch })
    const seen: number[] = []
    for await (const task of client.tasks({ pageSize: 7 })) seen.push(task.id)
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(calls.map((c) => new URL(c.url).searchParams.get('after'))).toEqual([null, '7'])
  })

  it('still walks every page when the Link header is hidden (CORS without exposure)', async () => {
    const { calls, fetch } = pagingFetch({ link: false })
    const client = createClient({ baseUrl: 'http://h', fetch })
    const seen: number[] = []
    for await (const task of client.tasks({ pageSize: 2, after: 1 })) seen.push(task.id)
    expect(seen).toEqual([2, 3, 4, 5, 6, 7])
    // Every page is full, so only an empty page can end the walk.
    expect(calls.map((c) => new URL(c.url).searchParams.get('after'))).toEqual(['1', '3', '5', '7'])
  })

  it('fetches lazily: breaking out of the loop stops requesting', async () => {
    const { calls, fetch } = pagingFetch()
    const client = createClient({ baseUrl: 'http://h', fetch })
    for await (const task of client.tasks({ pageSize: 2 })) if (task.id === 2) break
    expect(calls).toHaveLength(1)
  })

  it("walks newest first with order desc, following the Link's before", async () => {
    const { calls, fetch } = recordingFetch((_call, url) => {
      const query = new URL(url).searchParams
      const before = Number(query.get('before') ?? 100)
      const page = [...all]
        .reverse()
        .filter((t) => t.id < before)
        .slice(0, 3)
      const last = page.at(-1)
      const more = page.length === 3 && last !== undefined && last.id > 1
      return json(
        page,
        200,
        more ? { link: `</tasks?limit=3&before=${last.id}&order=desc>; rel="next"` } : {},
      )
    })
    const client = createClient({ baseUrl: 'http://h', fetch })
    const seen: number[] = []
    for await (const task of client.tasks({ pageSize: 3, order: 'desc' })) seen.push(task.id)
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1])
    expect(calls.map((c) => c.url)).toEqual([
      'http://h/tasks?limit=3&order=desc',
      'http://h/tasks?limit=3&before=5&order=desc',
      'http://h/tasks?limit=3&before=2&order=desc',
    ])
  })

  it('rejects a page size that is not a positive integer', async () => {
    const client = createClient({ baseUrl: 'http://h', fetch: pagingFetch().fetch })
    await expect(client.tasks({ pageSize: 0 }).next()).rejects.toBeInstanceOf(RangeError)
    await expect(client.tasks({ pageSize: 1.5 }).next()).rejects.toThrow(/pageSize/)
  })
})

describe('validate option', () => {
  it('accepts well-formed tasks, including 200 emoji names and large ids', async () => {
    const tasks = [
      { ...life, id: 1, name: '😀'.repeat(200), tag: '🏷️'.repeat(21) },
      { ...life, id: Number.MAX_SAFE_INTEGER, name: '任务 مهمة\nnext line' },
    ]
    const { fetch } = recordingFetch(() => json(tasks))
    const client = createClient({ baseUrl: 'http://h', fetch, validate: validateResponses })
    expect(await client.listTasks()).toEqual(tasks)
  })

  it.each([
    [
      [
        { ...life, id: 1, name: 'a' },
        { ...life, id: '2', name: 'b' },
      ],
      '[1].id',
      'must be an integer',
    ],
    [[{ ...life, id: 1 }], '[0].name', 'is missing'],
    [
      [{ ...life, id: 1, name: 'a', done: true }],
      '[0].done',
      'is not a property the contract allows',
    ],
    [[{ ...life, id: 1, name: 'a', tag: null }], '[0].tag', 'must be a string'],
    [
      [{ ...life, id: 1, name: '😀'.repeat(201) }],
      '[0].name',
      'must be at most 200 characters long',
    ],
    [[{ ...life, id: 1, name: '   ' }], '[0].name', 'must contain a non-whitespace character'],
    [[{ ...life, id: 1, name: 'a\uD800' }], '[0].name', 'must not contain an unpaired surrogate'],
    [[{ ...life, id: 0, name: 'a' }], '[0].id', 'must be at least 1'],
    [{ ...life, id: 1, name: 'a' }, '', 'must be an array'],
  ])('rejects a malformed list naming the field (%j)', async (body, path, why) => {
    const { calls, fetch } = recordingFetch(() => json(body))
    const client = createClient({
      baseUrl: 'http://h',
      fetch,
      validate: validateResponses,
      retry: fast,
    })
    const error = await client.listTasks().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ path, body, method: 'GET', url: 'http://h/tasks' })
    expect((error as Error).message).toBe(
      `The response to GET http://h/tasks does not match the contract: ${path || 'the body'} ${why}.`,
    )
    // Malformed data is not a transient failure: it is not retried.
    expect(calls).toHaveLength(1)
  })

  it('checks a single task of createTask and getTask', async () => {
    const { fetch } = recordingFetch(() => json({ ...life, id: 1, name: 5 }, 201))
    const client = createClient({ baseUrl: 'http://h', fetch, validate: validateResponses })
    await expect(client.createTask({ name: 'x' })).rejects.toMatchObject({ path: 'name' })
    await expect(client.getTask(1)).rejects.toMatchObject({ path: 'name' })
  })

  it('checks the tasks of the change feed, a deleted one against DeletedTask', async () => {
    const { fetch } = recordingFetch(() =>
      streamed(
        [
          `id: 1\nevent: created\ndata: ${JSON.stringify({ ...life, id: 1, name: 'a' })}\n\n`,
          'id: 2\nevent: deleted\ndata: {"id":1,"version":1}\n\n',
          'id: 3\nevent: deleted\ndata: {"id":1,"version":1,"name":"a"}\n\n',
        ],
        'text/event-stream',
      ),
    )
    const client = createClient({ baseUrl: 'http://h', fetch, validate: validateResponses })
    const seen: number[] = []
    const error = await (async () => {
      for await (const { seq } of client.watch({ after: 0, retry: false })) seen.push(seq)
    })().catch((e: unknown) => e)
    expect(seen).toEqual([1, 2])
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ path: 'name' })
  })

  it('lets anything through without the option', async () => {
    const { fetch } = recordingFetch(() => json({ id: '1' }))
    const client = createClient({ baseUrl: 'http://h', fetch })
    expect(await client.getTask(1)).toEqual({ id: '1' })
    expect(isApiError(new ValidationError('m', 'GET', 'u', '', null))).toBe(false)
  })
})

/** A streamed response whose body arrives in exactly these chunks. */
describe('exportTasks()', () => {
  it('reads one task per line, whatever the chunks, and asks for NDJSON', async () => {
    const { calls, fetch } = recordingFetch(() =>
      streamed(['{"id":1,"name":"a"}\n{"id":2,', '"name":"b"}\r\n{"id":3,"name":"c"}\n'], 'x'),
    )
    const client = createClient({ baseUrl: 'http://h', fetch })
    const seen: Task[] = []
    for await (const task of client.exportTasks({ tag: 't', order: 'desc' })) seen.push(task)
    expect(seen.map((task) => task.id)).toEqual([1, 2, 3])
    expect(calls[0]?.url).toBe('http://h/tasks?order=desc&tag=t')
    expect(calls[0]?.headers.accept).toBe('application/x-ndjson')
  })

  it('resumes a download cut off mid-way after the last task it yielded', async () => {
    let sent = false
    const { calls, fetch } = recordingFetch((call) =>
      call === 0
        ? new Response(
            new ReadableStream<Uint8Array>({
              // One chunk, then the connection breaks.
              pull(controller) {
                if (sent) return controller.error(new TypeError('terminated'))
                sent = true
                controller.enqueue(new TextEncoder().encode('{"id":9,"name":"a"}\n{"id":8'))
              },
            }),
          )
        : streamed(['{"id":8,"name":"b"}\n'], 'x'),
    )
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    const seen: number[] = []
    for await (const task of client.exportTasks({ order: 'desc' })) seen.push(task.id)
    expect(seen).toEqual([9, 8])
    expect(calls.map((c) => c.url)).toEqual([
      'http://h/tasks?order=desc',
      'http://h/tasks?before=9&order=desc',
    ])
  })

  it('throws the ApiError of a refused export without retrying it', async () => {
    const { calls, fetch } = recordingFetch(() => error(400))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    await expect(client.exportTasks({ tag: '' }).next()).rejects.toMatchObject({ status: 400 })
    expect(calls).toHaveLength(1)
  })
})

describe('watch()', () => {
  const SSE = 'text/event-stream'
  const newest = (seq: number) =>
    new Response('[]', {
      headers: { 'content-type': 'application/json', 'tasklane-seq': `${seq}` },
    })

  it('yields each created, updated and deleted event with its seq, whatever the line endings, comments or other events', async () => {
    const { calls, fetch } = recordingFetch((call) =>
      call === 0
        ? newest(4)
        : streamed(
            [
              ': keep-alive\n\n',
              'id: 5\r\nevent: created\r\ndata: {"id":5,"name":"a"}\r\n\r',
              '\nid: 6\revent: other\rdata: {"id":6,"name":"not a change"}\r\r',
              'id: 7\nevent: updated\ndata: {"id":5,\ndata: "name":"b"}\n\n',
              'id: 7\nevent: updated\ndata: {"id":5,"name":"b again"}\n\n',
              'id: 8\nevent: deleted\ndata: {"id":5,"version":2}\n\n',
            ],
            SSE,
          ),
    )
    const client = createClient({ baseUrl: 'http://h', fetch })
    const seen: TaskEvent[] = []
    for await (const event of client.watch({ tag: 'x', status: 'open', retry: false })) {
      seen.push(event)
    }
    expect(seen).toEqual([
      { type: 'created', seq: 5, task: { id: 5, name: 'a' } },
      { type: 'updated', seq: 7, task: { id: 5, name: 'b' } },
      { type: 'deleted', seq: 8, task: { id: 5, version: 2 } },
    ])
    // Without `after`, it starts from the newest seq now, so that it can always resume.
    expect(calls[0]?.url).toBe('http://h/tasks?limit=0&tag=x&status=open')
    expect(calls[1]?.url).toBe('http://h/tasks/events?after=4&tag=x&status=open')
    expect(calls[1]?.headers).toMatchObject({ accept: SSE, 'last-event-id': '4' })
  })

  it('reconnects when the stream ends or fails, resuming after the last seq yielded', async () => {
    const event = (seq: number) => `id: ${seq}\nevent: updated\ndata: {"id":1,"version":${seq}}\n\n`
    const { calls, fetch } = recordingFetch((call) => {
      if (call === 0) return streamed([event(3), event(4)], SSE)
      if (call === 1) throw new TypeError('fetch failed')
      if (call === 2) return error(503, { 'retry-after': '0' })
      return streamed([event(4), event(5)], SSE)
    })
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    const stop = new AbortController()
    const seen: number[] = []
    for await (const { seq } of client.watch({ after: 2, signal: stop.signal })) {
      seen.push(seq)
      if (seq === 5) stop.abort()
    }
    expect(seen).toEqual([3, 4, 5])
    expect(calls.map((c) => c.headers['last-event-id'])).toEqual(['2', '4', '4', '4'])
  })

  it('yields a reset, leaves its stream and resumes after its seq on a new one', async () => {
    const { calls, fetch } = recordingFetch((call) =>
      call === 0
        ? streamed(
            [
              'id: 3\nevent: updated\ndata: {"id":1,"version":3}\n\n',
              // Nothing after a reset is taken from its stream.
              'event: reset\ndata: {"seq":9}\n\nid: 10\nevent: created\ndata: {"id":2}\n\n',
            ],
            SSE,
          )
        : streamed(['id: 11\nevent: created\ndata: {"id":3,"name":"x"}\n\n'], SSE),
    )
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    const stop = new AbortController()
    const seen: TaskEvent[] = []
    for await (const event of client.watch({ after: 2, list: 4, signal: stop.signal })) {
      seen.push(event)
      if (event.seq === 11) stop.abort()
    }
    expect(seen).toEqual([
      { type: 'updated', seq: 3, task: { id: 1, version: 3 } },
      { type: 'reset', seq: 9 },
      { type: 'created', seq: 11, task: { id: 3, name: 'x' } },
    ])
    expect(calls.map((c) => [c.url, c.headers['last-event-id']])).toEqual([
      ['http://h/tasks/events?after=2&list=4', '2'],
      ['http://h/tasks/events?after=9&list=4', '9'],
    ])
  })

  it('yields a reset even at a seq it has passed, and ends after it without retries', async () => {
    const { calls, fetch } = recordingFetch(() =>
      streamed([': seq 12\n\n', 'event: reset\r\ndata: {"seq": 9}\r\n\r\n'], SSE),
    )
    const client = createClient({ baseUrl: 'http://h', fetch })
    const seen: TaskEvent[] = []
    for await (const event of client.watch({ after: 5, retry: false })) seen.push(event)
    expect(seen).toEqual([{ type: 'reset', seq: 9 }])
    expect(calls).toHaveLength(1)
  })

  it('throws an error that no retry can mend (a 400 or 401)', async () => {
    const { calls, fetch } = recordingFetch(() => error(401))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    await expect(client.watch({ after: 0 }).next()).rejects.toMatchObject({ status: 401 })
    expect(calls).toHaveLength(1)
  })

  it('ends without an error when the signal aborts, also while it waits for an event', async () => {
    const fetch = (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(': keep-alive\n\n'))
            init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason))
          },
        })
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))
        resolve(new Response(body, { headers: { 'content-type': SSE } }))
      })
    const client = createClient({ baseUrl: 'http://h', fetch })
    const stop = new AbortController()
    const watching = client.watch({ after: 0, signal: stop.signal }).next()
    setTimeout(() => stop.abort(), 20)
    expect(await watching).toEqual({ done: true, value: undefined })
  })

  it('takes a silent connection for dead after timeoutMs, and opens another', async () => {
    let opened = 0
    const fetch = (_input: RequestInfo | URL, init?: RequestInit) => {
      opened++
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          if (opened === 2) {
            controller.enqueue(
              new TextEncoder().encode('id: 1\nevent: created\ndata: {"id":1,"name":"x"}\n\n'),
            )
          }
          init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason))
        },
      })
      return Promise.resolve(new Response(body, { headers: { 'content-type': SSE } }))
    }
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast, timeoutMs: 50 })
    const stop = new AbortController()
    for await (const event of client.watch({ after: 0, signal: stop.signal })) {
      expect(event).toEqual({ type: 'created', seq: 1, task: { id: 1, name: 'x' } })
      stop.abort()
    }
    expect(opened).toBe(2)
  })
})

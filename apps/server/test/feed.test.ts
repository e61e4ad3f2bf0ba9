// GET /tasks/events: over 300 lines because each rule of the feed (format, resume, limits,
// keep-alive, shutdown, slow readers) is a test of its own.
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Storage } from '../src/storage/open-storage.js'
import { type Subscription, subscribe } from './support/events.js'
import { createTask, expectError, get, postJson, seqOf } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

// GET /tasks/events on the backend under test, over real HTTP.

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

/** Creates `count` tasks named `prefix i`, one after another. */
async function createMany(count: number, prefix: string, tag?: string): Promise<Task[]> {
  const tasks: Task[] = []
  for (let i = 0; i < count; i++) {
    tasks.push(
      await createTask(
        server,
        tag === undefined ? { name: `${prefix} ${i}` } : { name: `${prefix} ${i}`, tag },
      ),
    )
  }
  return tasks
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const newestId = async () =>
  ((await (await get(server, '/tasks?limit=1&order=desc')).json()) as Task[])[0]?.id ?? 0

/** The newest seq now, read off an empty page. */
const newestSeq = async () => seqOf(await get(server, '/tasks?limit=0'))

/** A task as created, with the seq of its create. */
interface Created {
  readonly task: Task
  readonly seq: number
}

/** Creates a task, and returns it with the seq of its create. */
async function createWithSeq(name: string): Promise<Created> {
  const response = await postJson(server, { name })
  expect(response.status).toBe(201)
  return { task: (await response.json()) as Task, seq: seqOf(response) }
}

describe('GET /tasks/events', () => {
  it('answers 200 text/event-stream, and sends each new task as one event: id (its seq), event: created, data', async () => {
    const start = await newestSeq()
    const feed = await subscribe(server, `/tasks/events?after=${start}`)
    try {
      expect(feed.response.statusCode).toBe(200)
      expect(feed.response.headers).toMatchObject({
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      })
      // Caught up on the (empty) backlog first: a task created before the backlog is read
      // would come in the backlog, with no `: seq <start>` before it.
      await feed.untilComments(2)
      const response = await postJson(server, { name: 'Ship 🚀 "quoted"\nnext line', tag: 'fmt' })
      const task = (await response.json()) as Task
      const seq = seqOf(response)
      await feed.untilTasks(1)
      await feed.untilComments(3)
      // The data is the Task as JSON on one line (its keys in an order of their own). Each
      // time the subscriber has caught up, a comment says with which seq.
      expect(feed.text()).toMatch(
        new RegExp(
          `^: keep-alive\n\n: seq ${start}\n\nid: ${seq}\nevent: created\ndata: \\{[^\n]+\\}\n\n: seq ${seq}\n\n$`,
        ),
      )
      expect(feed.events).toEqual([{ type: 'created', seq, task }])
      // No task of this database was ever changed: seqs and ids coincide.
      expect(seq).toBe(task.id)
    } finally {
      feed.close()
    }
  })

  it('sends the backlog after `after` first, then each new task once committed', async () => {
    const start = await newestSeq()
    const backlog = await createMany(3, 'backlog')
    const feed = await subscribe(server, `/tasks/events?after=${start}`)
    try {
      expect(await feed.untilTasks(3)).toEqual(backlog)
      const live = await createMany(2, 'live')
      expect(await feed.untilTasks(5)).toEqual([...backlog, ...live])
      expect(feed.events.map((event) => [event.type, event.seq])).toEqual(
        [1, 2, 3, 4, 5].map((i) => ['created', start + i]),
      )
    } finally {
      feed.close()
    }
  })

  it('starts after the newest task when neither after nor Last-Event-ID is given', async () => {
    await createMany(2, 'before subscribing')
    const feed = await subscribe(server)
    try {
      const [next] = await createMany(1, 'after subscribing')
      expect(await feed.untilTasks(1)).toEqual([next])
      await createMany(1, 'and another')
      await feed.untilTasks(2)
      expect(feed.tasks[0]).toEqual(next)
    } finally {
      feed.close()
    }
  })

  it('resumes after Last-Event-ID, which wins over after', async () => {
    const created: Created[] = []
    for (let i = 0; i < 4; i++) created.push(await createWithSeq(`resume ${i}`))
    const [, second, third, fourth] = created as [Created, Created, Created, Created]
    const feed = await subscribe(server, `/tasks/events?after=0`, {
      'last-event-id': String(second.seq),
    })
    try {
      expect(await feed.untilEvents(2)).toEqual([
        { type: 'created', seq: third.seq, task: third.task },
        { type: 'created', seq: fourth.seq, task: fourth.task },
      ])
    } finally {
      feed.close()
    }
  })

  it('sends only the tasks with the tag, when one is given', async () => {
    const start = await newestSeq()
    const feed = await subscribe(
      server,
      `/tasks/events?after=${start}&tag=${encodeURIComponent('a b&c')}`,
    )
    try {
      const tagged = []
      for (let i = 0; i < 6; i++) {
        const task = await createTask(
          server,
          i % 2 ? { name: `t${i}`, tag: 'a b&c' } : { name: `t${i}` },
        )
        if (i % 2) tagged.push(task)
      }
      expect(await feed.untilTasks(3)).toEqual(tagged)
    } finally {
      feed.close()
    }
  })

  it('sends every task exactly once and in ascending order while many clients create at once', async () => {
    const start = await newestSeq()
    const startId = await newestId()
    // Several at one place: they share reads, and must each still miss nothing.
    const early = await Promise.all(
      Array.from({ length: 10 }, () => subscribe(server, `/tasks/events?after=${start}`)),
    )
    const tagged = await subscribe(server, `/tasks/events?after=${start}&tag=even`)
    const WRITERS = 8
    const EACH = 30
    const acknowledged: Task[] = []
    let late: Subscription | undefined
    try {
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, writer) => {
          for (let i = 0; i < EACH; i++) {
            const body = { name: `writer ${writer} task ${i}`, ...(i % 2 ? {} : { tag: 'even' }) }
            // Some creates carry an Idempotency-Key and are sent twice: the repeat replays.
            const key = i % 5 === 0 ? `feed-${writer}-${i}-${start}` : undefined
            const response = await postJson(server, body, key)
            expect(response.status).toBe(201)
            const task = (await response.json()) as Task
            if (key !== undefined) expect((await postJson(server, body, key)).status).toBe(201)
            acknowledged.push(task)
            // One subscriber joins halfway, from where the feed then stood.
            if (writer === 0 && i === EACH / 2) late = await subscribe(server)
          }
        }),
      )
      const all = [...acknowledged].sort((a, b) => a.id - b.id)
      expect(all.map((task) => task.id)).toEqual(
        Array.from({ length: WRITERS * EACH }, (_, i) => startId + 1 + i),
      )
      for (const feed of early) {
        expect(await feed.untilTasks(all.length)).toEqual(all)
        expect(feed.events.map((event) => event.seq)).toEqual(
          Array.from({ length: WRITERS * EACH }, (_, i) => start + 1 + i),
        )
      }
      const even = all.filter((task) => task.tag === 'even')
      expect(await tagged.untilTasks(even.length)).toEqual(even)
      const lateTasks = late?.tasks ?? []
      const from = all.findIndex((task) => task.id === lateTasks[0]?.id)
      expect(from).toBeGreaterThan(0)
      expect(await late?.untilTasks(all.length - from)).toEqual(all.slice(from))
      // Nothing more arrives: no task twice.
      await createMany(1, 'sentinel')
      for (const feed of early) {
        await feed.untilTasks(all.length + 1)
        expect(feed.tasks).toHaveLength(all.length + 1)
      }
    } finally {
      for (const feed of [...early, tagged, late]) feed?.close()
    }
  }, 60_000)

  it('resumes with Last-Event-ID after a dropped connection, with no gap and no repeat', async () => {
    const start = await newestSeq()
    const first = await subscribe(server, `/tasks/events?after=${start}`)
    const before = await createMany(3, 'before the drop')
    await first.untilTasks(3)
    first.close()
    expect(await first.ended).toBe('aborted')
    const during = await createMany(3, 'while disconnected')
    const again = await subscribe(server, `/tasks/events?after=${start}`, {
      'last-event-id': String(first.events.at(-1)?.seq),
    })
    try {
      const after = await createMany(2, 'after reconnecting')
      expect([...first.tasks, ...(await again.untilTasks(5))]).toEqual([
        ...before,
        ...during,
        ...after,
      ])
    } finally {
      again.close()
    }
  })

  it('answers HEAD with the stream headers and no body', async () => {
    const response = await fetch(`${server.url}/tasks/events`, { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    // An endless stream has no length: HEAD must not claim one of 0.
    expect(response.headers.get('content-length')).toBeNull()
    expect(await response.text()).toBe('')
  })

  it.each([
    ['?after=-1', {}, 'Query parameter "after" must be at least 0.'],
    ['?after=x', {}, 'Query parameter "after" must be an integer.'],
    ['?after=9007199254740992', {}, 'Query parameter "after" must be at most 9007199254740991.'],
    ['?tag=', {}, 'Query parameter "tag" must be at least 1 character long.'],
    ['?limit=5', {}, 'Unknown query parameter "limit".'],
    ['?after=1&after=2', {}, 'Query parameter "after" must be given only once.'],
    ['', { 'last-event-id': 'abc' }, 'Header "last-event-id" must be an integer.'],
    ['', { 'last-event-id': '-3' }, 'Header "last-event-id" must be at least 0.'],
  ])(
    'answers 400 in the Error shape for %s %j, before any stream',
    async (query, headers, message) => {
      await expectError(await get(server, `/tasks/events${query}`, { headers }), 400, message)
    },
  )

  it('answers 405 for another method', async () => {
    const response = await fetch(`${server.url}/tasks/events`, { method: 'POST' })
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    await expectError(
      response,
      405,
      'Method POST is not allowed on "/tasks/events"; use GET or HEAD.',
    )
  })
})

describe('GET /tasks/events with slow reads', () => {
  it('misses nothing when a subscriber joins a read that began before a later commit', {
    timeout: 15_000,
  }, async () => {
    // Every read of changes answers 200 ms late, as a loaded database might: the changes it
    // holds are those committed when the query ran, not when it answered.
    const slow = await startServer({
      wrapStorage: (storage: Storage): Storage => ({
        ...storage,
        changesAfter: async (after, limit) => {
          const changes = await storage.changesAfter(after, limit)
          await new Promise((resolve) => setTimeout(resolve, 200))
          return changes
        },
      }),
    })
    try {
      const first = await subscribe(slow)
      await sleep(300)
      const created = await postJson(slow, { name: 'one' })
      const one = (await created.json()) as Task
      // While `first` reads the changes after the one before `one`, one more commits, and a
      // second subscriber asks for the same changes: it shares the read, which cannot hold `two`.
      const two = await createTask(slow, { name: 'two' })
      const second = await subscribe(slow, `/tasks/events?after=${seqOf(created) - 1}`)
      expect(await second.untilTasks(2)).toEqual([one, two])
      expect(await first.untilTasks(2)).toEqual([one, two])
      first.close()
      second.close()
    } finally {
      await slow.close()
    }
  })
})

describe('GET /tasks/events and the slow-client timeouts', () => {
  it('keeps a stream open past the time a whole request must arrive in', async () => {
    const strict = await startServer({ requestTimeoutMs: 300, headersTimeoutMs: 300 })
    try {
      const feed = await subscribe(strict)
      await sleep(1_500)
      const task = await createTask(strict, { name: 'still listening' })
      expect(await feed.untilTasks(1)).toEqual([task])
      feed.close()
    } finally {
      await strict.close()
    }
  })
})

describe('GET /tasks/events keep-alive', () => {
  it('sends ": keep-alive" comments on every interval while no task comes', async () => {
    const quick = await startServer({ keepAliveMs: 50 })
    try {
      const feed = await subscribe(quick)
      await feed.untilComments(5)
      expect(feed.tasks).toEqual([])
      // Caught up at once (nothing was ever written), then only keep-alives.
      expect(feed.text()).toMatch(/^: keep-alive\n\n: seq 0\n\n(: keep-alive\n\n){3,}$/)
      feed.close()
    } finally {
      await quick.close()
    }
  })
})

describe('GET /tasks/events with MAX_SUBSCRIBERS', () => {
  it('answers 503 with Retry-After past the limit, and admits again once a subscriber leaves', async () => {
    const limited = await startServer({ settings: { maxSubscribers: 2 } })
    try {
      const feeds = [await subscribe(limited), await subscribe(limited)]
      const refused = await get(limited, '/tasks/events')
      expect(refused.headers.get('retry-after')).toBe('10')
      await expectError(
        refused,
        503,
        'The change feed already has 2 subscribers, its limit; retry shortly.',
      )
      feeds[0]?.close()
      // The server notices the closed connection shortly after.
      let admitted = await subscribe(limited)
      for (let i = 0; admitted.response.statusCode === 503 && i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        admitted = await subscribe(limited)
      }
      expect(admitted.response.statusCode).toBe(200)
      for (const feed of [...feeds, admitted]) feed.close()
    } finally {
      await limited.close()
    }
  })
})

describe('GET /tasks/events with an API token', () => {
  it('answers 401 in the Error shape without the token, and streams with it', async () => {
    const guarded = await startServer({ settings: { apiToken: 'tl_feed' } })
    try {
      const response = await get(guarded, '/tasks/events')
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="tasklane"')
      await expectError(
        response,
        401,
        'The Authorization header is missing; send "Authorization: Bearer <token>".',
      )
      const feed = await subscribe(guarded, '/tasks/events', { authorization: 'Bearer tl_feed' })
      expect(feed.response.statusCode).toBe(200)
      feed.close()
    } finally {
      await guarded.close()
    }
  })
})

describe('GET /tasks/events when the server closes', () => {
  it('ends every stream cleanly, and the server finishes closing', async () => {
    const closing = await startServer()
    const feeds = [await subscribe(closing), await subscribe(closing, '/tasks/events?after=0')]
    await createTask(closing, { name: 'before closing' })
    await Promise.all(feeds.map((feed) => feed.untilTasks(1)))
    await closing.close()
    for (const feed of feeds) expect(await feed.ended).toBe('end')
  })
})

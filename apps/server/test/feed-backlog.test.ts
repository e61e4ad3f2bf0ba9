import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Storage } from '../src/storage/open-storage.js'
import { subscribe } from './support/events.js'
import { startServer, type TestServer } from './support/server.js'

// A subscriber that reads slowly, with 20,000 tasks of backlog.

const COUNT = 20_000
/** About 1.1 KB an event, 22 MB in all: far more than the kernel buffers of one socket. */
const nameOf = (i: number) => `${i} ${'🚀'.repeat(190)}`
const TAG = '🏷'.repeat(64)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let server: TestServer
/** Changes the server has read from storage so far (only the feed reads here). */
let read = 0
let inserted: Task[]

beforeAll(async () => {
  server = await startServer({
    wrapStorage: (storage: Storage): Storage => ({
      ...storage,
      changesAfter: async (after, limit) => {
        const changes = await storage.changesAfter(after, limit)
        read += changes.value.length
        return changes
      },
    }),
  })
  inserted = await server.testDatabase.insertMany(COUNT, (i) => ({ name: nameOf(i), tag: TAG }))
}, 60_000)

afterAll(async () => {
  await server?.close()
})

describe('GET /tasks/events with a slow reader and 20,000 tasks of backlog', () => {
  it('stops reading the backlog while the socket is full, then sends all of it, each task once', async () => {
    const feed = await subscribe(server, '/tasks/events?after=0')
    feed.pause()
    // The server writes until the socket's buffers are full, then waits for them to drain.
    let before = -1
    while (read !== before) {
      before = read
      await sleep(300)
    }
    // What it read went into those buffers (about 4 MB on Linux's loopback), no further.
    expect(read).toBeGreaterThan(0)
    expect(read).toBeLessThan(COUNT / 2)
    const received = feed.tasks.length

    feed.resume()
    const tasks = await feed.untilTasks(COUNT, 60_000)
    expect(received).toBeLessThan(COUNT / 2)
    expect(tasks.map((task) => task.id)).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1))
    expect(feed.events.map((event) => event.seq)).toEqual(
      Array.from({ length: COUNT }, (_, i) => i + 1),
    )
    expect(tasks[COUNT - 1]).toEqual(inserted[COUNT - 1])
    expect(tasks[0]).toEqual(inserted[0])
    // Read once each: nothing was read ahead and dropped, nothing twice.
    expect(read).toBe(COUNT)
    feed.close()
  }, 90_000)

  it('answers other requests while feeds read a backlog that sends nothing, between its reads', async () => {
    // Four views no task is in, from after=0: each reads the whole backlog and sends
    // nothing, so no full socket ever stops it; the reads take turns with other requests.
    const before = read
    const feeds = await Promise.all(
      Array.from({ length: 4 }, () => subscribe(server, '/tasks/events?after=0&tag=nobody-has-it')),
    )
    const created = await fetch(`${server.url}/task`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'made while feeds read' }),
    })
    const readWhenCreated = read - before
    expect(created.status).toBe(201)
    const seq = Number(created.headers.get('tasklane-seq'))
    await Promise.all(feeds.map((feed) => feed.untilSeq(seq, 60_000)))
    // The create was answered before the feeds had read their backlogs: far from it.
    expect(readWhenCreated).toBeLessThan((4 * COUNT) / 2)
    expect(feeds.flatMap((feed) => feed.events)).toEqual([])
    for (const feed of feeds) feed.close()
  }, 90_000)

  it('cuts, when the server closes, a stream whose reader has stopped reading', async () => {
    const feed = await subscribe(server, '/tasks/events?after=0')
    await feed.untilTasks(1)
    feed.pause()
    let before = -1
    while (read !== before) {
      before = read
      await sleep(300)
    }
    // Its end cannot get through a full socket: it is cut instead of holding the close up.
    await server.close()
    // Reading again, the client finds the stream cut short, not ended.
    feed.resume()
    expect(await feed.ended).toBe('aborted')
    expect(feed.tasks.length).toBeLessThan(COUNT)
  }, 30_000)
})

import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Subscription, subscribe } from './support/events.js'
import { createTask, expectError, get } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

// 1,000 subscribers on one server: the default MAX_SUBSCRIBERS. They all come from this
// one address, so the per-address limit (MAX_STREAMS_PER_CLIENT) is lifted above it.

const SUBSCRIBERS = 1000

let server: TestServer
const feeds: Subscription[] = []

beforeAll(async () => {
  server = await startServer({ settings: { maxStreamsPerClient: SUBSCRIBERS + 1 } })
})

afterAll(async () => {
  for (const feed of feeds) feed.close()
  await server?.close()
})

describe('GET /tasks/events with 1,000 subscribers', () => {
  it('sends each new task to every subscriber, in order, and refuses the 1,001st', async () => {
    await createTask(server, { name: 'before anyone subscribed' })
    // Fifty at a time, so that connecting is quick without a thousand at once.
    for (let i = 0; i < SUBSCRIBERS; i += 50) {
      feeds.push(...(await Promise.all(Array.from({ length: 50 }, () => subscribe(server)))))
    }
    expect(feeds.map((feed) => feed.response.statusCode)).toEqual(Array(SUBSCRIBERS).fill(200))
    await expectError(
      await get(server, '/tasks/events'),
      503,
      'The change feed already has 1000 subscribers, its limit; retry shortly.',
    )

    const created: Task[] = []
    for (const i of [1, 2, 3]) created.push(await createTask(server, { name: `fan-out ${i}` }))
    const received = await Promise.all(feeds.map((feed) => feed.untilTasks(3, 30_000)))
    for (const tasks of received) expect(tasks).toEqual(created)
  }, 120_000)
})

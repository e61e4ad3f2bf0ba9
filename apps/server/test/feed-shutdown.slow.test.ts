import type { Task } from '@tasklane/contract'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { type Subscription, subscribe } from './support/events.js'
import { createTask } from './support/http.js'
import { killAll, startServerProcess, within } from './support/processes.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'

// The change feed across a restart of a real server process (node dist/main.js).

let testDatabase: TestDatabase | undefined
const feeds: Subscription[] = []

afterEach(async () => {
  for (const feed of feeds.splice(0)) feed.close()
  await killAll()
  await testDatabase?.drop()
})

afterAll(killAll)

describe('GET /tasks/events when the server process stops (SIGTERM) and starts again', () => {
  it('ends the stream cleanly, exits 0 within 10 s, and the client resumes with no gap', async () => {
    testDatabase = await createTestDatabase()
    await testDatabase.migrate()
    const first = await startServerProcess({ DATABASE_URL: testDatabase.url })
    const before: Task[] = []
    for (const i of [1, 2, 3]) before.push(await createTask(first, { name: `before ${i}` }))
    const feed = await subscribe(first, '/tasks/events?after=0')
    const idle = await subscribe(first)
    feeds.push(feed, idle)
    expect(await feed.untilTasks(3)).toEqual(before)

    const sentAt = Date.now()
    process.kill(first.pid, 'SIGTERM')
    expect(await within(feed.ended, 10_000, 'the stream ending')).toBe('end')
    expect(await within(idle.ended, 10_000, 'the idle stream ending')).toBe('end')
    const exit = await within(first.exited, 10_000 - (Date.now() - sentAt), 'exit within 10 s')
    expect(exit).toEqual({ code: 0, signal: null })

    // Meanwhile another writer on the same database goes on creating tasks.
    const meanwhile = await testDatabase.insertMany(2, (i) => ({ name: `while it was down ${i}` }))
    const second = await startServerProcess({ DATABASE_URL: testDatabase.url })
    const resumed = await subscribe(second, '/tasks/events', {
      'last-event-id': String(feed.events.at(-1)?.seq),
    })
    feeds.push(resumed)
    const after = [await createTask(second, { name: 'after the restart' })]
    expect(await resumed.untilTasks(3)).toEqual([...meanwhile, ...after])
    expect([...meanwhile, ...after].map((task) => task.id)).toEqual([4, 5, 6])
    expect(resumed.events.map((event) => [event.type, event.seq])).toEqual([
      ['created', 4],
      ['created', 5],
      ['created', 6],
    ])
  }, 60_000)
})

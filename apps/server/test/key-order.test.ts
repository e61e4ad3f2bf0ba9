// One key order for a Task everywhere: the contract's. The same task, tagged, with notes,
// due and priority, as the create answers it, as GET /tasks/{id}, a JSON listing, an NDJSON
// listing and the change feed send it: JSON.stringify of each is the same text (snapshot
// tests and caches that compare text rely on it).
import { Task } from '@tasklane/contract'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { subscribe } from './support/events.js'
import { get, seqOf } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

it('sends a task with its keys in the contract order on every route', async () => {
  const start = seqOf(await get(server, '/tasks?limit=1'))
  const feed = await subscribe(server, `/tasks/events?after=${start}`)
  try {
    const response = await fetch(`${server.url}/task`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        priority: 2,
        due: '2026-12-01',
        notes: 'Bring the slides.',
        tag: 'work',
        name: 'Present the plan',
      }),
    })
    expect(response.status).toBe(201)
    const created = await response.text()
    const task = JSON.parse(created) as Task
    const single = await (await get(server, `/tasks/${task.id}`)).text()
    const listed = (await (await get(server, `/tasks?limit=1&order=desc`)).json()) as Task[]
    const ndjson = await (
      await get(server, '/tasks?order=desc', { headers: { accept: 'application/x-ndjson' } })
    ).text()
    const [fed] = await feed.untilTasks(1)
    const texts = [
      created,
      single,
      JSON.stringify(listed[0]),
      ndjson.split('\n')[0],
      JSON.stringify(fed),
    ].map((text) => JSON.stringify(JSON.parse(text as string)))
    expect(new Set(texts).size).toBe(1)
    // The contract's order: its properties as declared, those the task has.
    const declared = Object.keys(Task.properties).filter((key) => key in task)
    expect(Object.keys(task)).toEqual(declared)
    expect(Object.keys(task)).toEqual(expect.arrayContaining(['tag', 'notes', 'due']))
  } finally {
    feed.close()
  }
})

// Planning and history through the client against a real server: notes, due and priority,
// moves in the manual order, a task's history, and listings sorted and filtered (what the
// server answers to those today: the requests the client makes and the Links it follows).
import { startServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ApiError,
  createClient,
  type List,
  PreconditionFailedError,
  type Task,
  type TasklaneClient,
} from '../src/index.js'
import { nextQuery } from '../src/pagination.js'
import { validateResponses } from '../src/validate.js'
import { lossyProxy } from './proxies.js'

let server: Awaited<ReturnType<typeof startServer>>
let client: TasklaneClient

beforeAll(async () => {
  server = await startServer()
  client = createClient({ baseUrl: server.url, validate: validateResponses })
})
afterAll(() => server.close())

/** A list of its own for a test, so that its tasks and their order are the test's alone. */
async function freshList(name: string): Promise<List> {
  return client.createList({ name })
}

/** Ids in the manual order: positions compare as bytes (they are ASCII letters and digits). */
const byPosition = (tasks: readonly Task[]) =>
  [...tasks].sort((a, b) => (a.position < b.position ? -1 : 1)).map((task) => task.id)

describe('notes, due and priority', () => {
  it('creates a task with them, changes them and clears them with null', async () => {
    const task = await client.createTask({
      name: 'Release notes',
      notes: 'Check the changelog first.\n- link the issue',
      due: '2026-12-01T17:00:00+01:00',
      priority: 3,
    })
    expect(task).toMatchObject({
      notes: 'Check the changelog first.\n- link the issue',
      due: '2026-12-01T17:00:00+01:00',
      priority: 3,
      position: expect.stringMatching(/^[0-9A-Za-z]+$/),
    })
    const changed = await client.updateTask(task.id, { due: '2026-12-02', priority: 1 })
    expect(changed).toMatchObject({ due: '2026-12-02', priority: 1, version: 2 })
    const cleared = await client.updateTask(task.id, { notes: null, due: null, priority: 0 })
    expect(cleared.priority).toBe(0)
    expect('notes' in cleared || 'due' in cleared).toBe(false)
    const done = await client.completeTask(task.id)
    expect(done.completedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect('completedAt' in (await client.reopenTask(task.id))).toBe(false)
  })

  it("answers an impossible due with the server's 400 naming it", async () => {
    const refused = await client
      .createTask({ name: 'Never', due: '2026-02-30' })
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 400, message: expect.stringContaining('due') })
  })
})

describe('moveTask', () => {
  it('moves a task before or after another, and to the top or bottom of its list', async () => {
    const list = await freshList('Order')
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((name) => client.createTask({ name, listId: list.id })),
    ).then((tasks) => tasks.sort((x, y) => x.id - y.id) as [Task, Task, Task])
    const inList = () => client.listTasks(undefined, { list: list.id })
    expect(byPosition(await inList())).toEqual([a.id, b.id, c.id])

    const moved = await client.moveTask(c.id, { before: a.id })
    expect(moved).toMatchObject({ id: c.id, listId: list.id, version: 2 })
    expect(byPosition(await inList())).toEqual([c.id, a.id, b.id])
    await client.moveTask(c.id, { after: a.id })
    expect(byPosition(await inList())).toEqual([a.id, c.id, b.id])
    const top = await client.moveTask(b.id, 'top')
    expect(byPosition(await inList())).toEqual([b.id, a.id, c.id])
    const bottom = await client.moveTask(b.id, 'bottom', { ifMatch: top.version })
    expect(bottom.version).toBe(top.version + 1)
    expect(byPosition(await inList())).toEqual([a.id, c.id, b.id])
  })

  it('moves a task into another list with listId, before a task of that list', async () => {
    const from = await freshList('From')
    const to = await freshList('To')
    const there = await client.createTask({ name: 'there', listId: to.id })
    const going = await client.createTask({ name: 'going', listId: from.id })
    const moved = await client.moveTask(going.id, { before: there.id }, { listId: to.id })
    expect(moved.listId).toBe(to.id)
    expect(byPosition(await client.listTasks(undefined, { list: to.id }))).toEqual([
      going.id,
      there.id,
    ])
    expect(await client.listTasks(undefined, { list: from.id })).toEqual([])
  })

  it('refuses a stale If-Match with a PreconditionFailedError, and a task of another list with a 400 naming it', async () => {
    const list = await freshList('Refusals')
    const task = await client.createTask({ name: 'stays', listId: list.id })
    const elsewhere = await client.createTask({ name: 'elsewhere' })
    const stale = await client.moveTask(task.id, 'top', { ifMatch: 9 }).catch((e: unknown) => e)
    expect(stale).toBeInstanceOf(PreconditionFailedError)
    expect(stale).toMatchObject({ status: 412, etag: '"1"', version: 1 })
    const foreign = await client.moveTask(task.id, { after: elsewhere.id }).catch((e: unknown) => e)
    expect(foreign).toMatchObject({ status: 400, message: expect.stringContaining('after') })
    expect(await client.getTask(task.id)).toEqual(task)
  })

  it('retries a move whose answer was lost as a replay: the task moves once', async () => {
    const list = await freshList('Lossy')
    const first = await client.createTask({ name: 'first', listId: list.id })
    const last = await client.createTask({ name: 'last', listId: list.id })
    const proxy = await lossyProxy(server.url, 1)
    try {
      const flaky = createClient({ baseUrl: proxy.url, retry: { initialDelayMs: 10 } })
      const moved = await flaky.moveTask(last.id, { before: first.id })
      expect(proxy.keys).toHaveLength(2)
      expect(new Set(proxy.keys).size).toBe(1)
      expect(moved.version).toBe(2)
      const history = await client.taskHistory(last.id)
      expect(history.map((entry) => entry.type)).toEqual(['moved', 'created'])
    } finally {
      proxy.close()
    }
  })
})

describe('taskHistory and history()', () => {
  it("reads a task's changes newest first, each with its seq, actor and fields, also once deleted", async () => {
    const task = await client.createTask({ name: 'Tracked', priority: 1 })
    const done = await client.updateTask(task.id, { status: 'done', notes: 'with care' })
    const moved = await client.moveTask(task.id, 'top')
    await client.deleteTask(task.id)
    const history = await client.taskHistory(task.id)
    expect(history.map(({ type, actor }) => `${type} by ${actor}`)).toEqual([
      'deleted by local',
      'moved by local',
      'updated by local',
      'created by local',
    ])
    expect(history[1]?.changes).toEqual({ position: { from: done.position, to: moved.position } })
    expect(history[2]).toMatchObject({
      at: done.updatedAt,
      changes: {
        status: { from: 'open', to: 'done' },
        notes: { from: null, to: 'with care' },
        completedAt: { from: null, to: done.completedAt },
      },
    })
    const seqs = history.map((entry) => entry.seq)
    expect(seqs).toEqual([...seqs].sort((x, y) => y - x))
    expect(await client.taskHistory(task.id, { limit: 2, before: seqs[1] })).toEqual(
      history.slice(2, 4),
    )
  })

  it('walks every page of a long history following the Link header', async () => {
    const task = await client.createTask({ name: 'Busy' })
    for (let priority = 1; priority <= 6; priority++) {
      await client.updateTask(task.id, { priority: priority % 4 })
    }
    const pages: string[] = []
    const watched = createClient({
      baseUrl: server.url,
      validate: validateResponses,
      fetch: async (input, init) => {
        pages.push(new URL(String(input)).search)
        return fetch(input, init)
      },
    })
    const walked = []
    for await (const entry of watched.history(task.id, { pageSize: 3 })) walked.push(entry)
    expect(walked).toEqual(await client.taskHistory(task.id))
    expect(walked).toHaveLength(7)
    expect(pages).toHaveLength(3)
    expect(pages[0]).toBe('?limit=3')
  })

  it('answers 404 for a task that never was', async () => {
    const missing = await client.taskHistory(999_999).catch((e: unknown) => e)
    expect(missing).toMatchObject({ status: 404 })
    await expect(client.history(999_999).next()).rejects.toMatchObject({ status: 404 })
  })
})

describe('listings with sort and planning filters', () => {
  /** A client that records each listing's URL and the Link it was answered with. */
  function recordingClient() {
    const exchanges: { url: URL; link: string | null }[] = []
    const recording = createClient({
      baseUrl: server.url,
      validate: validateResponses,
      fetch: async (input, init) => {
        const response = await fetch(input, init)
        exchanges.push({ url: new URL(String(input)), link: response.headers.get('link') })
        return response
      },
    })
    return { exchanges, recording }
  }

  it('is answered for every sort and filter the contract names', async () => {
    const list = await freshList('Filters')
    await client.createTask({ name: 'Plan the release', listId: list.id, priority: 2 })
    const { exchanges, recording } = recordingClient()
    for (const sort of ['id', 'due', 'priority', 'position', 'updated'] as const) {
      const listed = await recording.listTasks(10, { list: list.id, sort, order: 'desc' })
      expect(listed.every((task) => task.listId === list.id)).toBe(true)
    }
    await recording.listTasks(10, {
      list: list.id,
      priority: 2,
      dueFrom: '2026-01-01',
      dueTo: '2026-12-31',
      tz: 'Europe/Paris',
      overdue: false,
      q: 'release',
    })
    expect(exchanges.map(({ url }) => url.searchParams.get('sort'))).toEqual([
      'id',
      'due',
      'priority',
      'position',
      'updated',
      null,
    ])
    expect(Object.fromEntries(exchanges.at(-1)?.url.searchParams ?? [])).toEqual({
      limit: '10',
      list: String(list.id),
      priority: '2',
      dueFrom: '2026-01-01',
      dueTo: '2026-12-31',
      tz: 'Europe/Paris',
      overdue: 'false',
      q: 'release',
    })
  })

  it('walks a sorted listing page by page, each page the one the Link before it named', async () => {
    const list = await freshList('Sorted walk')
    const created: Task[] = []
    for (const priority of [1, 3, 0, 2, 3]) {
      created.push(await client.createTask({ name: `p${priority}`, listId: list.id, priority }))
    }
    const { exchanges, recording } = recordingClient()
    const walked: Task[] = []
    const walk = recording.tasks({ list: list.id, sort: 'priority', order: 'desc', pageSize: 2 })
    for await (const task of walk) walked.push(task)
    expect(walked.map((task) => task.id).sort((x, y) => x - y)).toEqual(created.map((t) => t.id))
    expect(exchanges.length).toBeGreaterThanOrEqual(3)
    expect(exchanges[0]?.url.search).toBe(`?limit=2&order=desc&sort=priority&list=${list.id}`)
    for (const [index, { url }] of exchanges.entries()) {
      if (index === 0) continue
      const named = nextQuery(exchanges[index - 1]?.link ?? null)
      expect(Object.fromEntries(url.searchParams)).toEqual(named)
    }
  })
})

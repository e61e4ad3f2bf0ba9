// GET /tasks?sort=due|priority|position|updated with order=asc|desc: each order as docs/api.md
// defines it (undated last both ways, ties by id, the manual order by list then position),
// paged by opaque cursors, streamed as NDJSON and past a page in memory; bad cursors.
import type { List, Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN_TOKEN,
  as,
  type Caller,
  createList,
  expectErrorBody,
  expectStatus,
} from './support/access.js'
import { startServer, type TestServer } from './support/server.js'
import { idsOf, KEYED_SORTS, listed, type Order, pagesFrom, sortedAs } from './support/sorting.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'

let server: TestServer
let admin: Caller
let lists: List[]
/** Every task as it stands once the setup is done. */
let all: Task[]

const DUES = [
  undefined,
  '2026-03-01',
  '2026-03-01T10:00:00+01:00',
  // 04:30 UTC on 1 March: before the day 2026-03-01 ends in UTC.
  '2026-02-28T23:30:00-05:00',
  '2026-03-02',
  '2026-03-01',
  undefined,
  '2027-01-01T00:00:00Z',
]

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: ADMIN_TOKEN } })
  admin = as(server, ADMIN_TOKEN)
  lists = [await createList(admin, 'Errands'), await createList(admin, 'Work')]
  const created: Task[] = []
  for (let i = 0; i < 16; i++) {
    const due = DUES[i % DUES.length]
    const listId = i % 3 === 0 ? 1 : (lists[i % 2] as List).id
    const body = { name: `task ${i}`, listId, priority: (i * 7) % 4, ...(due && { due }) }
    created.push(expectStatus<Task>(await admin.post('/task', body), 201))
  }
  // Changes: new priorities and update times, tasks moved within and between lists.
  for (const task of created.filter((_, i) => i % 5 === 0)) {
    expectStatus(await admin.patch(`/tasks/${task.id}`, { priority: 3 - task.priority }), 200)
  }
  // Three tasks of list 1: the third goes to its top, the second after it, the first to Work.
  const [first, second, third] = [created[0], created[3], created[6]] as [Task, Task, Task]
  expectStatus(await admin.post(`/tasks/${third.id}/move`, { to: 'top' }), 200)
  expectStatus(
    await admin.post(`/tasks/${first.id}/move`, { to: 'top', listId: (lists[1] as List).id }),
    200,
  )
  expectStatus(await admin.post(`/tasks/${second.id}/move`, { after: third.id }), 200)
  all = (await listed(admin, '/tasks')).tasks
  expect(all).toHaveLength(16)
})

afterAll(async () => {
  await server?.close()
})

const ORDERS: Order[] = ['asc', 'desc']
const CASES = KEYED_SORTS.flatMap((sort) => ORDERS.map((order) => [sort, order] as const))

describe('GET /tasks?sort=…', () => {
  it.each(CASES)('lists every task by %s, %s', async (sort, order) => {
    const { tasks, link } = await listed(admin, `/tasks?sort=${sort}&order=${order}`)
    expect(idsOf(tasks)).toEqual(idsOf(sortedAs(all, sort, order)))
    expect(link).toBeNull()
  })

  it.each(CASES)('pages by %s, %s with a cursor in each Link', async (sort, order) => {
    const pages = await pagesFrom(admin, `/tasks?limit=3&sort=${sort}&order=${order}`)
    expect(pages.map((page) => page.length)).toEqual([3, 3, 3, 3, 3, 1])
    expect(idsOf(pages.flat())).toEqual(idsOf(sortedAs(all, sort, order)))
  })

  it.each(CASES)('sends NDJSON by %s, %s', async (sort, order) => {
    const response = await admin.get(`/tasks?sort=${sort}&order=${order}`, {
      accept: 'application/x-ndjson',
    })
    expect(response.headers['content-type']).toBe('application/x-ndjson')
    const tasks = response.body
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line) as Task)
    expect(idsOf(tasks)).toEqual(idsOf(sortedAs(all, sort, order)))
  })

  it('puts undated tasks last both ways, by id', async () => {
    const undated = idsOf(all.filter((task) => task.due === undefined))
    expect(undated.length).toBeGreaterThan(2)
    const asc = idsOf((await listed(admin, '/tasks?sort=due')).tasks)
    const desc = idsOf((await listed(admin, '/tasks?sort=due&order=desc')).tasks)
    expect(asc.slice(-undated.length)).toEqual(undated)
    expect(desc.slice(-undated.length)).toEqual([...undated].reverse())
  })

  it('orders a day after the moments of its UTC day, and ties by id', async () => {
    const dues = (await listed(admin, '/tasks?sort=due')).tasks.map((task) => task.due)
    const march = dues.filter((due) => due?.startsWith('2026-0'))
    expect(march.indexOf('2026-03-01')).toBeGreaterThan(march.indexOf('2026-03-01T10:00:00+01:00'))
    expect(march.indexOf('2026-03-01')).toBeGreaterThan(march.indexOf('2026-02-28T23:30:00-05:00'))
    const days = (await listed(admin, '/tasks?sort=due')).tasks.filter(
      (task) => task.due === '2026-03-01',
    )
    expect(idsOf(days)).toEqual(idsOf(days).sort((a, b) => a - b))
  })

  it('orders the manual order by list id, then position, as moves left it', async () => {
    const { tasks } = await listed(admin, '/tasks?sort=position')
    const listIds = tasks.map((task) => task.listId)
    expect(listIds).toEqual([...listIds].sort((a, b) => a - b))
    const [first, second, third] = [all[0], all[3], all[6]] as [Task, Task, Task]
    const work = tasks.filter((task) => task.listId === (lists[1] as List).id)
    expect(work[0]?.id).toBe(first.id)
    const home = tasks.filter((task) => task.listId === 1)
    expect(idsOf(home.slice(0, 2))).toEqual([third.id, second.id])
  })

  it('writes every parameter into the Link next to the cursor', async () => {
    const page = await admin.get(
      `/tasks?limit=1&sort=priority&order=desc&status=open&list=${lists[0]?.id}&q=task&tz=Europe/Paris&dueFrom=2020-01-01&overdue=false`,
    )
    expect(page.statusCode).toBe(200)
    expect(page.headers.link).toMatch(
      new RegExp(
        `^</tasks\\?limit=1&sort=priority&order=desc&cursor=[A-Za-z0-9_-]+&status=open&list=${lists[0]?.id}&dueFrom=2020-01-01&tz=Europe%2FParis&overdue=false&q=task>; rel="next"$`,
      ),
    )
  })

  it('keeps after and before as id ranges in another sort', async () => {
    const ids = idsOf(all).sort((a, b) => a - b)
    const [low, high] = [ids[3] as number, ids[12] as number]
    const inRange = all.filter((task) => task.id > low && task.id < high)
    const pages = await pagesFrom(admin, `/tasks?limit=2&sort=priority&after=${low}&before=${high}`)
    expect(idsOf(pages.flat())).toEqual(idsOf(sortedAs(inRange, 'priority', 'asc')))
  })

  it('keeps sort=id paging with after and before', async () => {
    const { link } = await listed(admin, '/tasks?limit=2&sort=id')
    expect(link).toBe(`/tasks?limit=2&after=${idsOf(all)[1]}`)
  })

  it.each([
    ['a cursor that is not base64url JSON', 'sort=due&cursor=bm90LWpzb24'],
    ['a cursor of another sort', 'sort=priority&cursor=CURSOR_OF_DUE'],
    ['a cursor of another order', 'sort=due&order=desc&cursor=CURSOR_OF_DUE'],
    ['a cursor of other filters', 'sort=due&status=open&cursor=CURSOR_OF_DUE'],
    ['a cursor whose key is not the sort’s', 'sort=due&cursor=WRONG_KEY'],
  ])('returns 400 naming cursor for %s', async (_label, query) => {
    const first = await listed(admin, '/tasks?limit=2&sort=due')
    const cursor = new URLSearchParams(first.link?.split('?')[1]).get('cursor') as string
    const json = JSON.parse(Buffer.from(cursor, 'base64url').toString())
    const wrong = Buffer.from(JSON.stringify({ ...json, k: 'x' })).toString('base64url')
    const path = `/tasks?limit=2&${query.replace('CURSOR_OF_DUE', cursor).replace('WRONG_KEY', wrong)}`
    expectErrorBody(
      await admin.get(path),
      400,
      'Query parameter "cursor" must be one that a Link of this listing gave (same sort, order and filters).',
    )
  })

  it('returns 400 for a cursor with sort=id', async () => {
    expectErrorBody(
      await admin.get('/tasks?cursor=abc'),
      400,
      'Query parameter "cursor" pages a sort other than id; sort=id pages with after and before.',
    )
  })

  it('returns 400 for an unknown sort', async () => {
    const response = await admin.get('/tasks?sort=name')
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toMatch(/^Query parameter "sort" must be /)
  })
})

describe('GET /tasks?sort=… past a page in memory (streamed)', () => {
  const COUNT = 1100
  let testDatabase: TestDatabase
  let big: TestServer
  let caller: Caller
  let tasks: Task[]

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    await testDatabase.migrate()
    await testDatabase.insertMany(COUNT)
    // Priorities and due days straight in the rows: enough to sort by.
    await testDatabase.use(async (db) => {
      await db
        .updateTable('tasks')
        .set((eb) => ({ priority: eb('id', '%', 4) }))
        .execute()
      for (let day = 1; day <= 9; day++) {
        const due = `2026-05-0${day}`
        await db
          .updateTable('tasks')
          .set({ due, due_day: due, due_key: Date.parse(`${due}T23:59:59.999Z`) })
          .where((eb) => eb(eb('id', '%', 10), '=', day))
          .execute()
      }
    })
    big = await startServer({ testDatabase, settings: { apiToken: ADMIN_TOKEN } })
    caller = as(big, ADMIN_TOKEN)
    tasks = (await listed(caller, '/tasks')).tasks
    expect(tasks).toHaveLength(COUNT)
  }, 120_000)

  afterAll(async () => {
    await big?.close()
    await testDatabase?.drop()
  })

  it.each([
    ['priority', 'asc'],
    ['due', 'desc'],
  ] as const)('streams every task by %s, %s, as JSON and as NDJSON', async (sort, order) => {
    const expected = idsOf(sortedAs(tasks, sort, order))
    expect(idsOf((await listed(caller, `/tasks?sort=${sort}&order=${order}`)).tasks)).toEqual(
      expected,
    )
    const ndjson = await caller.get(`/tasks?sort=${sort}&order=${order}`, {
      accept: 'application/x-ndjson',
    })
    const lines = ndjson.body.split('\n').slice(0, -1)
    expect(lines.map((line) => (JSON.parse(line) as Task).id)).toEqual(expected)
  })

  it('pages of 1001 by due carry a cursor past the 1001st task', async () => {
    const pages = await pagesFrom(caller, '/tasks?limit=1001&sort=due')
    expect(pages.map((page) => page.length)).toEqual([1001, 99])
    expect(idsOf(pages.flat())).toEqual(idsOf(sortedAs(tasks, 'due', 'asc')))
  })
})

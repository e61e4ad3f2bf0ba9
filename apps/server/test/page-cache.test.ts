// The page cache of GET /tasks: over 300 lines because every change that must evict a
// page (create, PATCH, DELETE, another instance's write) is a test of its own.
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Storage } from '../src/storage/open-storage.js'
import { PageCache } from '../src/tasks/page-cache.js'
import {
  createTask,
  deleteRaw,
  deleteTask,
  get,
  jsonBody,
  patchRaw,
  patchTask,
  seqOf,
} from './support/http.js'
import { startServer, type TestServer } from './support/server.js'
import { onPostgres } from './support/test-database.js'

/**
 * A server whose listing queries are counted, to tell a page served from the cache (no
 * query) from one read again.
 */
async function countingServer(options: Parameters<typeof startServer>[0] = {}) {
  const counter = { reads: 0 }
  const server = await startServer({
    ...options,
    wrapStorage: (storage: Storage): Storage => ({
      ...storage,
      readPage: (filter, limit) => {
        counter.reads++
        return storage.readPage(filter, limit)
      },
    }),
  })
  /** The page's tasks, Link and Tasklane-Seq, and how many listing queries answering it took. */
  async function page(path: string) {
    const before = counter.reads
    const response = await get(server, path)
    const tasks = await jsonBody<Task[]>(response)
    return {
      tasks,
      link: response.headers.get('link'),
      seq: seqOf(response),
      reads: counter.reads - before,
    }
  }
  return { server, page, reads: () => counter.reads }
}

/** What a page's tasks are and how many queries it took, for `toEqual`. */
const counted = ({ tasks, reads }: { tasks: Task[]; reads: number }) => ({ tasks, reads })

describe('GET /tasks: a page is served from the cache only while nothing has changed', () => {
  let server: TestServer
  let page: Awaited<ReturnType<typeof countingServer>>['page']
  let created: Task[]

  beforeAll(async () => {
    ;({ server, page } = await countingServer())
    created = []
    for (const i of [1, 2, 3, 4, 5]) {
      created.push(await createTask(server, { name: `t${i}`, tag: i % 2 ? 'odd' : 'even' }))
    }
  })
  afterAll(() => server.close())

  it('serves a page again without reading it, body, Link and Tasklane-Seq alike, while nothing changes', async () => {
    const first = await page('/tasks?limit=2')
    expect(first).toEqual({
      tasks: created.slice(0, 2),
      link: `</tasks?limit=2&after=${created[1]?.id}>; rel="next"`,
      seq: expect.any(Number),
      reads: 1,
    })
    expect(await page('/tasks?limit=2')).toEqual({ ...first, reads: 0 })
    expect(await page('/tasks?limit=2')).toEqual({ ...first, reads: 0 })
  })

  it('reads a page again after a create elsewhere, answering the new Tasklane-Seq', async () => {
    const first = await page('/tasks?limit=2')
    const added = await createTask(server, { name: 't6' })
    created.push(added)
    const again = await page('/tasks?limit=2')
    expect(again).toEqual({ ...first, seq: expect.any(Number), reads: 1 })
    expect(again.seq).toBeGreaterThan(first.seq)
  })

  it('never serves a page as it was before a PATCH of one of its tasks', async () => {
    const path = '/tasks?limit=3&tag=odd'
    expect((await page(path)).tasks).toEqual([created[0], created[2], created[4]])
    expect((await page(path)).reads).toBe(0)
    const renamed = await patchTask(server, (created[2] as Task).id, { name: 't3 renamed' })
    const after = await page(path)
    expect(after).toEqual({
      tasks: [created[0], renamed, created[4]],
      link: null,
      seq: expect.any(Number),
      reads: 1,
    })
    created[2] = renamed
  })

  it('never serves a page as it was before a PATCH that makes a task leave it', async () => {
    const path = '/tasks?limit=10&status=open'
    const before = await page(path)
    expect(before.tasks).toEqual(created)
    expect((await page(path)).reads).toBe(0)
    const done = await patchTask(server, (created[1] as Task).id, { status: 'done' })
    expect(await page(path)).toEqual({
      tasks: created.filter((task) => task.id !== done.id),
      link: null,
      seq: expect.any(Number),
      reads: 1,
    })
    expect((await page('/tasks?limit=10&status=done')).tasks).toEqual([done])
    created[1] = done
  })

  it('never serves a page as it was before a DELETE: the next task moves up, and the Link with it', async () => {
    const path = '/tasks?limit=2'
    expect((await page(path)).tasks).toEqual(created.slice(0, 2))
    await deleteTask(server, (created[0] as Task).id)
    created.shift()
    expect(await page(path)).toEqual({
      tasks: created.slice(0, 2),
      link: `</tasks?limit=2&after=${created[1]?.id}>; rel="next"`,
      seq: expect.any(Number),
      reads: 1,
    })
  })

  it('keeps serving a page after writes that changed nothing: a PATCH to the same values, a 412, a 404', async () => {
    const path = '/tasks?limit=2'
    const cached = await page(path)
    const task = created[0] as Task
    const same = await patchRaw(server, task.id, { name: task.name })
    expect(same.status).toBe(200)
    await same.body?.cancel()
    const stale = await patchRaw(server, task.id, { name: 'x' }, { 'if-match': '"99"' })
    expect(stale.status).toBe(412)
    await stale.body?.cancel()
    const gone = await deleteRaw(server, 1_000_000)
    expect(gone.status).toBe(404)
    await gone.body?.cancel()
    expect(await page(path)).toEqual({ ...cached, reads: 0 })
  })

  it('reads the last, partial page afresh, so new tasks appear on it', async () => {
    const before = (await page('/tasks?limit=100&tag=odd')).tasks
    const added = await createTask(server, { name: 't7', tag: 'odd' })
    const after = await page('/tasks?limit=100&tag=odd')
    expect(after.tasks).toEqual([...before, added])
    expect(after.link).toBeNull()
  })

  it('gives a page that filled up since it was last read its Link', async () => {
    const tail = (await page('/tasks?limit=1&order=desc')).tasks[0] as Task
    const partial = await page(`/tasks?limit=3&after=${tail.id}`)
    expect([partial.tasks, partial.link]).toEqual([[], null])
    const more = [
      await createTask(server, { name: 'u1' }),
      await createTask(server, { name: 'u2' }),
      await createTask(server, { name: 'u3' }),
      await createTask(server, { name: 'u4' }),
    ]
    const full = await page(`/tasks?limit=3&after=${tail.id}`)
    expect(full.tasks).toEqual(more.slice(0, 3))
    expect(full.link).toBe(`</tasks?limit=3&after=${more[2]?.id}>; rel="next"`)
  })
})

describe('GET /tasks: a changed page is read once for the requests that ask for it together', () => {
  let server: TestServer
  let reads: () => number

  beforeAll(async () => {
    ;({ server, reads } = await countingServer())
    for (const i of [1, 2, 3]) await createTask(server, { name: `t${i}` })
  })
  afterAll(() => server.close())

  it('answers twenty requests that arrive after a PATCH from one read, each with the change', async () => {
    const twenty = () =>
      Promise.all(
        Array.from({ length: 20 }, async () => {
          const response = await get(server, '/tasks?limit=2')
          return { seq: seqOf(response), tasks: await jsonBody<Task[]>(response) }
        }),
      )
    // Twenty connections open and idle, so that the next twenty requests leave at once.
    const [first] = (await twenty())[0]?.tasks ?? []
    const renamed = await patchTask(server, (first as Task).id, { name: 'renamed' })
    const before = reads()
    const pages = await twenty()
    expect(reads() - before).toBe(1)
    expect(new Set(pages.map((page) => page.seq)).size).toBe(1)
    for (const page of pages) expect(page.tasks[0]).toEqual(renamed)
  })
})

describe('GET /tasks?order=desc with repeated page requests', () => {
  let server: TestServer
  let page: Awaited<ReturnType<typeof countingServer>>['page']
  let created: Task[]

  beforeAll(async () => {
    ;({ server, page } = await countingServer())
    created = []
    for (const i of [1, 2, 3, 4, 5]) created.push(await createTask(server, { name: `d${i}` }))
  })
  afterAll(() => server.close())

  it('reads the first page afresh after each create, which changes it', async () => {
    expect(counted(await page('/tasks?limit=2&order=desc'))).toEqual({
      tasks: [created[4], created[3]],
      reads: 1,
    })
    const added = await createTask(server, { name: 'd6' })
    created.push(added)
    expect(counted(await page('/tasks?limit=2&order=desc'))).toEqual({
      tasks: [added, created[4]],
      reads: 1,
    })
  })

  // The old cache kept such a page for good (every id below its cursor was assigned);
  // now any task on it may change or go.
  it('never serves a page below the newest task as it was before a change to it', async () => {
    const path = `/tasks?limit=2&order=desc&before=${created[3]?.id}`
    expect(counted(await page(path))).toEqual({ tasks: [created[2], created[1]], reads: 1 })
    expect(counted(await page(path))).toEqual({ tasks: [created[2], created[1]], reads: 0 })
    const done = await patchTask(server, (created[1] as Task).id, { status: 'done' })
    expect(counted(await page(path))).toEqual({ tasks: [created[2], done], reads: 1 })
    await deleteTask(server, (created[2] as Task).id)
    expect(counted(await page(path))).toEqual({ tasks: [done, created[0]], reads: 1 })
  })

  it('lets later tasks join a page whose cursor lies above the newest task', async () => {
    const path = '/tasks?limit=2&order=desc&before=1000000'
    const first = await page(path)
    expect(first.reads).toBe(1)
    const added = await createTask(server, { name: 'd8' })
    const second = await page(path)
    expect(counted(second)).toEqual({ tasks: [added, first.tasks[0]], reads: 1 })
  })
})

// Every instance on the database checks its newest seq before serving a cached page: a
// change answered by another instance is never hidden by this one's cache.
describe.runIf(onPostgres)('GET /tasks on two instances sharing one database', () => {
  let one: Awaited<ReturnType<typeof countingServer>>
  let other: TestServer

  beforeAll(async () => {
    one = await countingServer()
    other = await startServer({ testDatabase: one.server.testDatabase })
  })
  afterAll(async () => {
    await other?.close()
    await one?.server.close()
  })

  it('reads a cached page again once the other instance has changed, deleted or created a task', async () => {
    const tasks = [
      await createTask(one.server, { name: 'shared 1' }),
      await createTask(one.server, { name: 'shared 2' }),
    ]
    const path = '/tasks?limit=5'
    expect(counted(await one.page(path))).toEqual({ tasks, reads: 1 })
    expect(counted(await one.page(path))).toEqual({ tasks, reads: 0 })

    const changed = await patchRaw(other, (tasks[0] as Task).id, { status: 'done' })
    const done = await jsonBody<Task>(changed)
    const afterPatch = await one.page(path)
    expect(counted(afterPatch)).toEqual({ tasks: [done, tasks[1]], reads: 1 })
    expect(afterPatch.seq).toBeGreaterThanOrEqual(seqOf(changed))

    await deleteTask(other, (tasks[1] as Task).id)
    expect(counted(await one.page(path))).toEqual({ tasks: [done], reads: 1 })

    const added = await createTask(other, { name: 'shared 3' })
    expect(counted(await one.page(path))).toEqual({ tasks: [done, added], reads: 1 })
    expect(counted(await one.page(path))).toEqual({ tasks: [done, added], reads: 0 })
  })
})

describe('PageCache', () => {
  const page = (body: string, seq = 1) => ({
    body,
    link: `l${body}`,
    seq,
    accessSeq: 0,
    empty: false,
  })

  it('serves a page only for the seq it reflects', () => {
    const cache = new PageCache()
    cache.set('a', page('A', 7))
    expect(cache.get('a', 7)?.body).toBe('A')
    expect(cache.get('a', 8)).toBeUndefined()
    expect(cache.get('a', 6)).toBeUndefined()
    expect(cache.has('a')).toBe(true)
    expect(cache.has('b')).toBe(false)
    cache.set('a', page('A2', 8))
    expect(cache.get('a', 7)).toBeUndefined()
    expect(cache.get('a', 8)).toEqual(page('A2', 8))
  })

  it('keeps at most maxPages, dropping the least recently used first', () => {
    const cache = new PageCache(2)
    cache.set('a', page('A'))
    cache.set('b', page('B'))
    expect(cache.get('a', 1)?.body).toBe('A')
    cache.set('c', page('C'))
    expect(cache.has('b')).toBe(false)
    expect(cache.get('a', 1)?.body).toBe('A')
    expect(cache.get('c', 1)?.body).toBe('C')
  })

  it('keeps the bodies within maxChars, dropping the least recently used first', () => {
    const cache = new PageCache(100, 10)
    cache.set('a', page('aaaa'))
    cache.set('b', page('bbbb'))
    expect(cache.get('a', 1)?.body).toBe('aaaa')
    cache.set('c', page('cccc'))
    expect(cache.has('b')).toBe(false)
    expect(cache.get('a', 1)?.body).toBe('aaaa')
    cache.set('huge', page('x'.repeat(11)))
    expect(cache.has('huge')).toBe(false)
    expect(cache.get('c', 1)?.body).toBe('cccc')
  })

  it('keeps tags that contain the separator apart from other cursors', () => {
    const key = (after: number | undefined, tag: string | undefined) =>
      PageCache.key({ limit: 2, after, tag }, 'json', undefined)
    expect(key(1, ':3')).not.toBe(key(1, undefined))
    expect(key(undefined, 'x')).toBe(key(0, 'x'))
    expect(key(1, '')).not.toBe(key(1, undefined))
  })

  it('keeps orders, bounds, statuses, formats and lists apart', () => {
    const keys = [
      PageCache.key({ limit: 2, after: 1 }, 'json', undefined),
      PageCache.key({ limit: 2, after: 1 }, 'ndjson', undefined),
      PageCache.key({ limit: 2, after: 1, order: 'desc' }, 'json', undefined),
      PageCache.key({ limit: 2, after: 1, before: 9 }, 'json', undefined),
      PageCache.key({ limit: 2, before: 1 }, 'json', undefined),
      PageCache.key({ limit: 2, after: 1, status: 'open' }, 'json', undefined),
      PageCache.key({ limit: 2, after: 1, status: 'done' }, 'json', undefined),
    ]
    keys.push(
      PageCache.key({ limit: 2, after: 1 }, 'json', [1]),
      PageCache.key({ limit: 2, after: 1 }, 'json', [1, 2]),
      PageCache.key({ limit: 2, after: 1 }, 'json', []),
    )
    expect(new Set(keys).size).toBe(keys.length)
    expect(PageCache.key({ limit: 2, order: 'asc' }, 'json', undefined)).toBe(
      PageCache.key({ limit: 2 }, 'json', undefined),
    )
  })
})

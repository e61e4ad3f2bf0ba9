import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Storage } from '../src/storage/index.js'
import { PageCache } from '../src/tasks/page-cache.js'
import { createTask, get, jsonBody } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

describe('GET /tasks with repeated page requests', () => {
  let server: TestServer
  let created: Task[]

  beforeAll(async () => {
    server = await startServer()
    created = []
    for (const i of [1, 2, 3, 4, 5]) {
      created.push(await createTask(server, { name: `t${i}`, tag: i % 2 ? 'odd' : 'even' }))
    }
  })
  afterAll(() => server.close())

  it('serves a full page identically, body and Link, after more tasks are created', async () => {
    const first = await get(server, '/tasks?limit=2')
    const firstBody = await jsonBody<Task[]>(first)
    await createTask(server, { name: 't6' })
    const again = await get(server, '/tasks?limit=2')
    expect(await jsonBody<Task[]>(again)).toEqual(firstBody)
    expect(firstBody).toEqual(created.slice(0, 2))
    expect(again.headers.get('link')).toBe(first.headers.get('link'))
    expect(again.headers.get('link')).toBe(`</tasks?limit=2&after=${created[1]?.id}>; rel="next"`)
  })

  it('reads the last, partial page afresh, so new tasks appear on it', async () => {
    const before = await jsonBody<Task[]>(await get(server, '/tasks?limit=100&tag=odd'))
    const added = await createTask(server, { name: 't7', tag: 'odd' })
    const after = await get(server, '/tasks?limit=100&tag=odd')
    expect(await jsonBody<Task[]>(after)).toEqual([...before, added])
    expect(after.headers.get('link')).toBeNull()
  })

  it('gives a page that filled up since it was last read its Link', async () => {
    const tail = created.at(-1) as Task
    const partial = await get(server, `/tasks?limit=3&after=${tail.id}`)
    const partialBody = await jsonBody<Task[]>(partial)
    expect(partial.headers.get('link')).toBeNull()
    const more = [
      await createTask(server, { name: 'u1' }),
      await createTask(server, { name: 'u2' }),
    ]
    const full = await get(server, `/tasks?limit=3&after=${tail.id}`)
    const fullBody = await jsonBody<Task[]>(full)
    expect(fullBody).toEqual([...partialBody, ...more].slice(0, 3))
    expect(full.headers.get('link')).toBe(`</tasks?limit=3&after=${fullBody[2]?.id}>; rel="next"`)
  })
})

describe('GET /tasks?order=desc with repeated page requests', () => {
  let server: TestServer
  let created: Task[]
  let reads = 0

  /** Counts the listing queries, to tell a cached page from one read again. */
  const counting = (storage: Storage): Storage => ({
    ...storage,
    listTasks: (filter, limit) => {
      reads++
      return storage.listTasks(filter, limit)
    },
  })

  /** The page's tasks, and how many listing queries answering it took. */
  async function page(path: string): Promise<{ tasks: Task[]; reads: number }> {
    const before = reads
    const tasks = await jsonBody<Task[]>(await get(server, path))
    return { tasks, reads: reads - before }
  }

  beforeAll(async () => {
    server = await startServer({ wrapStorage: counting })
    created = []
    for (const i of [1, 2, 3, 4, 5]) created.push(await createTask(server, { name: `d${i}` }))
  })
  afterAll(() => server.close())

  it('reads the first page afresh every time: each create changes it', async () => {
    expect(await page('/tasks?limit=2&order=desc')).toEqual({
      tasks: [created[4], created[3]],
      reads: 1,
    })
    const added = await createTask(server, { name: 'd6' })
    created.push(added)
    expect(await page('/tasks?limit=2&order=desc')).toEqual({
      tasks: [added, created[4]],
      reads: 1,
    })
  })

  it('reads a page below the newest task once: every id below its cursor is assigned', async () => {
    const path = `/tasks?limit=2&order=desc&before=${created[3]?.id}`
    expect(await page(path)).toEqual({ tasks: [created[2], created[1]], reads: 1 })
    await createTask(server, { name: 'd7' })
    expect(await page(path)).toEqual({ tasks: [created[2], created[1]], reads: 0 })
  })

  it('never keeps a page whose cursor lies above the newest task: later ones join it', async () => {
    const path = '/tasks?limit=2&order=desc&before=1000000'
    const first = await page(path)
    expect(first.reads).toBe(1)
    const added = await createTask(server, { name: 'd8' })
    const second = await page(path)
    expect(second).toEqual({ tasks: [added, first.tasks[0]], reads: 1 })
  })
})

describe('PageCache', () => {
  it('keeps at most maxPages, dropping the least recently used first', () => {
    const cache = new PageCache(2)
    cache.set('a', { body: 'A', link: 'la' })
    cache.set('b', { body: 'B', link: 'lb' })
    expect(cache.get('a')?.body).toBe('A')
    cache.set('c', { body: 'C', link: 'lc' })
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')?.body).toBe('A')
    expect(cache.get('c')?.body).toBe('C')
  })

  it('keeps the bodies within maxChars, dropping the least recently used first', () => {
    const cache = new PageCache(100, 10)
    cache.set('a', { body: 'aaaa', link: '' })
    cache.set('b', { body: 'bbbb', link: '' })
    expect(cache.get('a')?.body).toBe('aaaa')
    cache.set('c', { body: 'cccc', link: '' })
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')?.body).toBe('aaaa')
    cache.set('huge', { body: 'x'.repeat(11), link: '' })
    expect(cache.get('huge')).toBeUndefined()
    expect(cache.get('c')?.body).toBe('cccc')
  })

  it('keeps tags that contain the separator apart from other cursors', () => {
    const key = (after: number | undefined, tag: string | undefined) =>
      PageCache.key({ limit: 2, after, tag }, 'json')
    expect(key(1, ':3')).not.toBe(key(1, undefined))
    expect(key(undefined, 'x')).toBe(key(0, 'x'))
    expect(key(1, '')).not.toBe(key(1, undefined))
  })

  it('keeps orders, bounds and formats apart', () => {
    const keys = [
      PageCache.key({ limit: 2, after: 1 }, 'json'),
      PageCache.key({ limit: 2, after: 1 }, 'ndjson'),
      PageCache.key({ limit: 2, after: 1, order: 'desc' }, 'json'),
      PageCache.key({ limit: 2, after: 1, before: 9 }, 'json'),
      PageCache.key({ limit: 2, before: 1 }, 'json'),
    ]
    expect(new Set(keys).size).toBe(keys.length)
    expect(PageCache.key({ limit: 2, order: 'asc' }, 'json')).toBe(
      PageCache.key({ limit: 2 }, 'json'),
    )
  })
})

import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get, jsonBody } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

// Pages of more than 1000 tasks, and the full list, take the streamed path.
const COUNT = 2500

let server: TestServer
let all: Task[]
let even: Task[]
const logged: Record<string, unknown>[] = []

beforeAll(async () => {
  server = await startServer({ log: logged })
  all = await server.testDatabase.insertMany(COUNT, (i) =>
    i % 10 === 9
      ? { name: `large ${i}` }
      : { name: `large ${i}`, tag: i % 2 === 0 ? 'even' : 'odd' },
  )
  expect(all.map((task) => task.id)).toEqual(all.map((_, i) => i + 1))
  even = all.filter((task) => task.tag === 'even')
})

afterAll(async () => {
  await server?.close()
})

async function list(path: string): Promise<{ tasks: Task[]; link: string | null }> {
  const response = await get(server, path)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
  return { tasks: await jsonBody<Task[]>(response), link: response.headers.get('link') }
}

const idAt = (tasks: Task[], index: number) => (tasks[index] as Task).id

describe('GET /tasks with more than 1000 tasks (streamed path)', () => {
  it('returns every task in ascending id order when limit is omitted, without Link', async () => {
    const { tasks, link } = await list('/tasks')
    expect(tasks).toHaveLength(COUNT)
    expect(tasks).toEqual(all)
    expect(link).toBeNull()
  })

  it('returns the first 1000 tasks for limit=1000 with a Link (buffered boundary)', async () => {
    const { tasks, link } = await list('/tasks?limit=1000')
    expect(tasks).toEqual(all.slice(0, 1000))
    expect(link).toBe(`</tasks?limit=1000&after=${idAt(all, 999)}>; rel="next"`)
  })

  it('returns the first 1001 tasks for limit=1001 with a Link to the next page', async () => {
    const { tasks, link } = await list('/tasks?limit=1001')
    expect(tasks).toEqual(all.slice(0, 1001))
    expect(link).toBe(`</tasks?limit=1001&after=${idAt(all, 1000)}>; rel="next"`)
  })

  it('returns a Link when exactly one task remains beyond the page', async () => {
    const { tasks, link } = await list(`/tasks?limit=${COUNT - 1}`)
    expect(tasks).toEqual(all.slice(0, COUNT - 1))
    expect(link).toBe(`</tasks?limit=${COUNT - 1}&after=${idAt(all, COUNT - 2)}>; rel="next"`)
  })

  it('returns no Link when the page holds exactly the remaining tasks', async () => {
    const { tasks, link } = await list(`/tasks?limit=${COUNT}`)
    expect(tasks).toEqual(all)
    expect(link).toBeNull()
  })

  it('combines a large limit with after', async () => {
    const { tasks, link } = await list(`/tasks?limit=1500&after=${idAt(all, 499)}`)
    expect(tasks).toEqual(all.slice(500, 2000))
    expect(link).toBe(`</tasks?limit=1500&after=${idAt(all, 1999)}>; rel="next"`)
  })

  it('streams every task after an id when limit is omitted', async () => {
    const { tasks, link } = await list(`/tasks?after=${idAt(all, 1233)}`)
    expect(tasks).toEqual(all.slice(1234))
    expect(link).toBeNull()
  })

  it('streams every task with a tag when limit is omitted', async () => {
    const { tasks, link } = await list('/tasks?tag=even')
    expect(tasks).toEqual(even)
    expect(link).toBeNull()
  })

  it('combines a large limit with tag and carries the tag in the Link', async () => {
    const { tasks, link } = await list('/tasks?limit=1001&tag=even')
    expect(tasks).toEqual(even.slice(0, 1001))
    expect(link).toBe(`</tasks?limit=1001&after=${idAt(even, 1000)}&tag=even>; rel="next"`)
  })

  it('pages through every task by following Link headers with limit=1001', async () => {
    const pages: Task[][] = []
    let next: string | undefined = '/tasks?limit=1001'
    while (next !== undefined && pages.length < 10) {
      const { tasks, link } = await list(next)
      pages.push(tasks)
      next = link === null ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1]
    }
    expect(pages.map((page) => page.length)).toEqual([1001, 1001, 498])
    expect(pages.flat()).toEqual(all)
  })

  it('streams every task newest first for order=desc', async () => {
    const { tasks, link } = await list('/tasks?order=desc')
    expect(tasks).toEqual([...all].reverse())
    expect(link).toBeNull()
  })

  it('combines a large limit with order=desc and links to the older tasks', async () => {
    const newestFirst = [...even].reverse()
    const { tasks, link } = await list('/tasks?limit=1001&order=desc&tag=even')
    expect(tasks).toEqual(newestFirst.slice(0, 1001))
    expect(link).toBe(
      `</tasks?limit=1001&before=${idAt(newestFirst, 1000)}&order=desc&tag=even>; rel="next"`,
    )
    const rest = await list(
      `/tasks?limit=1001&before=${idAt(newestFirst, 1000)}&order=desc&tag=even`,
    )
    expect(rest.tasks).toEqual(newestFirst.slice(1001))
    expect(rest.link).toBeNull()
  })

  it('streams every task as NDJSON, in either order', async () => {
    for (const [query, expected] of [
      ['', all],
      ['?order=desc', [...all].reverse()],
      ['?limit=1500&after=100', all.slice(100, 1600)],
    ] as const) {
      const response = await get(server, `/tasks${query}`, {
        headers: { accept: 'application/x-ndjson' },
      })
      expect(response.headers.get('content-type')).toBe('application/x-ndjson')
      const lines = (await response.text()).split('\n')
      expect(lines.pop()).toBe('')
      expect(lines.map((line) => JSON.parse(line))).toEqual(expected)
    }
  })
})

describe('HEAD /tasks with more than 1000 tasks', () => {
  it("answers GET's status and headers without a body, and logs no error", async () => {
    const errorsBefore = logged.filter((line) => (line.level as number) >= 50).length
    for (const path of ['/tasks', '/tasks?limit=2000']) {
      const [head, got] = [
        await fetch(`${server.url}${path}`, { method: 'HEAD' }),
        await get(server, path),
      ]
      expect(head.status).toBe(200)
      expect(await head.text()).toBe('')
      expect(head.headers.get('tasklane-seq')).toBe(got.headers.get('tasklane-seq'))
      expect(head.headers.get('link')).toBe(got.headers.get('link'))
      expect(head.headers.get('content-type')).toBe(got.headers.get('content-type'))
      await got.arrayBuffer()
    }
    // The log is written as responses end; give the last one a moment.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(logged.filter((line) => (line.level as number) >= 50).length).toBe(errorsBefore)
  })
})

describe('compression', () => {
  it('compresses a large page for a client that accepts br or gzip, and not a small one', async () => {
    const encoding = async (path: string) => {
      const response = await fetch(`${server.url}${path}`, {
        headers: { 'accept-encoding': 'br, gzip' },
      })
      await response.arrayBuffer()
      return response.headers.get('content-encoding')
    }
    expect(await encoding('/tasks?limit=100')).toBe('br')
    expect(await encoding('/tasks')).toBe('br')
    expect(await encoding('/tasks?limit=2')).toBeNull()
  })

  it("compresses the API description and the docs page's script, as the client accepts", async () => {
    const sent = async (path: string, accept: string) => {
      const response = await fetch(`${server.url}${path}`, {
        headers: { 'accept-encoding': accept },
      })
      const body = await response.text()
      return { status: response.status, encoding: response.headers.get('content-encoding'), body }
    }
    const description = await sent('/openapi.json', 'gzip')
    expect(description).toMatchObject({ status: 200, encoding: 'gzip' })
    expect(JSON.parse(description.body)).toHaveProperty('openapi')
    const bundle = await sent('/docs/static/swagger-ui-bundle.js', 'br, gzip')
    expect(bundle).toMatchObject({ status: 200, encoding: 'br' })
    expect(bundle.body.length).toBeGreaterThan(100_000)
    expect((await sent('/openapi.json', 'identity')).encoding).toBeNull()
  })

  it('never compresses the change feed', async () => {
    const controller = new AbortController()
    const response = await fetch(`${server.url}/tasks/events`, {
      headers: { 'accept-encoding': 'br, gzip' },
      signal: controller.signal,
    })
    expect(response.headers.get('content-encoding')).toBeNull()
    controller.abort()
  })
})

// GET /tasks: over 300 lines because each rule of docs/api.md's listing section (limit,
// cursors, order, filters, Link, errors) is a test of its own.
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTask, expectError, get, jsonBody } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer
/** Every task created, in creation order. */
const all: Task[] = []
const TAG_WITH_SPECIALS = 'a b&c=d/é'

beforeAll(async () => {
  server = await startServer()
  for (let i = 1; i <= 12; i++) {
    const tag = i % 3 === 0 ? undefined : i % 3 === 1 ? 'odd' : TAG_WITH_SPECIALS
    all.push(
      await createTask(
        server,
        tag === undefined ? { name: `task ${i}` } : { name: `task ${i}`, tag },
      ),
    )
  }
})

afterAll(async () => {
  await server?.close()
})

const ids = (tasks: Task[]) => tasks.map((task) => task.id)
const withTag = (tag: string) => all.filter((task) => task.tag === tag)

async function list(path: string): Promise<{ tasks: Task[]; link: string | null }> {
  const response = await get(server, path)
  expect(response.status).toBe(200)
  const tasks = await jsonBody<Task[]>(response)
  return { tasks, link: response.headers.get('link') }
}

/** Follows `rel="next"` links from `path`, returning every page. */
async function follow(path: string): Promise<Task[][]> {
  const pages: Task[][] = []
  let next: string | null = path
  while (next !== null) {
    const { tasks, link } = await list(next)
    pages.push(tasks)
    const match: RegExpExecArray | null =
      link === null ? null : /^<([^>]+)>; rel="next"$/.exec(link)
    if (link !== null) expect(match).not.toBeNull()
    next = match?.[1] ?? null
    if (pages.length > 50) throw new Error('too many pages')
  }
  return pages
}

describe('GET /tasks', () => {
  describe('without parameters', () => {
    it('returns 200 with every task in ascending id order', async () => {
      const { tasks, link } = await list('/tasks')
      expect(tasks).toEqual(all)
      expect(ids(tasks)).toEqual([...ids(tasks)].sort((a, b) => a - b))
      expect(link).toBeNull()
    })

    it('answers with Content-Type application/json', async () => {
      const response = await get(server, '/tasks')
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    })

    it('omits the tag key for tasks without a tag', async () => {
      const { tasks } = await list('/tasks')
      const untagged = tasks.filter((_, i) => (i + 1) % 3 === 0)
      expect(untagged).toHaveLength(4)
      for (const task of untagged) {
        expect(Object.keys(task).sort()).toEqual([
          'createdAt',
          'createdBy',
          'id',
          'listId',
          'name',
          'position',
          'priority',
          'status',
          'updatedAt',
          'updatedBy',
          'version',
        ])
      }
    })
  })

  describe('limit', () => {
    it('returns the first N tasks and a Link to the next page when more exist', async () => {
      const { tasks, link } = await list('/tasks?limit=5')
      expect(tasks).toEqual(all.slice(0, 5))
      expect(link).toBe(`</tasks?limit=5&after=${all[4]?.id}>; rel="next"`)
    })

    it('returns 0 tasks for limit=0', async () => {
      const { tasks, link } = await list('/tasks?limit=0')
      expect(tasks).toEqual([])
      expect(link).toBeNull()
    })

    it('returns no Link header when the page holds exactly the remaining tasks', async () => {
      const { tasks, link } = await list('/tasks?limit=12')
      expect(tasks).toEqual(all)
      expect(link).toBeNull()
    })

    it('returns no Link header when fewer than limit tasks exist', async () => {
      const { tasks, link } = await list('/tasks?limit=100')
      expect(tasks).toEqual(all)
      expect(link).toBeNull()
    })

    it('accepts the largest int32, 2147483647', async () => {
      const { tasks, link } = await list('/tasks?limit=2147483647')
      expect(tasks).toEqual(all)
      expect(link).toBeNull()
    })

    it('pages through every task by following Link headers', async () => {
      const pages = await follow('/tasks?limit=5')
      expect(pages.map((page) => page.length)).toEqual([5, 5, 2])
      expect(pages.flat()).toEqual(all)
    })

    it.each([
      ['negative', '-1', 'Query parameter "limit" must be at least 0.'],
      ['fractional', '1.5', 'Query parameter "limit" must be an integer.'],
      ['non-numeric', 'abc', 'Query parameter "limit" must be an integer.'],
      ['empty', '', 'Query parameter "limit" must be an integer.'],
      ['exponent notation', '1e3', 'Query parameter "limit" must be an integer.'],
      ['hexadecimal', '0x10', 'Query parameter "limit" must be an integer.'],
      [
        '2147483648 (above int32)',
        '2147483648',
        'Query parameter "limit" must be at most 2147483647.',
      ],
      [
        'far above int32',
        '99999999999999999999',
        'Query parameter "limit" must be at most 2147483647.',
      ],
      ['400 digits', '9'.repeat(400), 'Query parameter "limit" must be at most 2147483647.'],
      ['-2^63', '-9223372036854775808', 'Query parameter "limit" must be at least 0.'],
    ])('returns 400 when limit is %s', async (_label, value, message) => {
      await expectError(await get(server, `/tasks?limit=${value}`), 400, message)
    })

    it('returns 400 when limit is repeated', async () => {
      await expectError(
        await get(server, '/tasks?limit=1&limit=2'),
        400,
        'Query parameter "limit" must be given only once.',
      )
    })
  })

  describe('unknown parameters', () => {
    it('returns 400 naming a misspelt parameter such as limt', async () => {
      await expectError(await get(server, '/tasks?limt=5'), 400, 'Unknown query parameter "limt".')
    })

    it('returns 400 naming an unknown parameter next to a valid one', async () => {
      await expectError(
        await get(server, '/tasks?limit=5&offset=2'),
        400,
        'Unknown query parameter "offset".',
      )
    })
  })

  describe('after', () => {
    it('returns only tasks with an id greater than after', async () => {
      const pivot = all[6] as Task
      const { tasks, link } = await list(`/tasks?after=${pivot.id}`)
      expect(tasks).toEqual(all.slice(7))
      expect(link).toBeNull()
    })

    it('combines with limit and links to the next page', async () => {
      const pivot = all[2] as Task
      const { tasks, link } = await list(`/tasks?after=${pivot.id}&limit=3`)
      expect(tasks).toEqual(all.slice(3, 6))
      expect(link).toBe(`</tasks?limit=3&after=${all[5]?.id}>; rel="next"`)
    })

    it('returns all tasks for after=0', async () => {
      expect((await list('/tasks?after=0')).tasks).toEqual(all)
    })

    it('returns [] when after is the last id', async () => {
      expect((await list(`/tasks?after=${all[11]?.id}`)).tasks).toEqual([])
    })

    it('accepts 2^53-1, the largest id a task can have', async () => {
      expect((await list('/tasks?after=9007199254740991')).tasks).toEqual([])
    })

    it.each([
      ['negative', '-1', 'Query parameter "after" must be at least 0.'],
      ['-2^63', '-9223372036854775808', 'Query parameter "after" must be at least 0.'],
      ['not an integer', 'x', 'Query parameter "after" must be an integer.'],
      ['2^53', '9007199254740992', 'Query parameter "after" must be at most 9007199254740991.'],
      ['2^63', '9223372036854775808', 'Query parameter "after" must be at most 9007199254740991.'],
      ['400 digits', '9'.repeat(400), 'Query parameter "after" must be at most 9007199254740991.'],
    ])('returns 400 when after is %s', async (_label, value, message) => {
      await expectError(await get(server, `/tasks?after=${value}`), 400, message)
    })
  })

  describe('tag', () => {
    it('returns only tasks with exactly that tag, in ascending id order', async () => {
      const { tasks, link } = await list('/tasks?tag=odd')
      expect(tasks).toEqual(withTag('odd'))
      expect(tasks).toHaveLength(4)
      expect(link).toBeNull()
    })

    it('returns [] for a tag no task has', async () => {
      expect((await list('/tasks?tag=nope')).tasks).toEqual([])
    })

    it('matches the tag exactly (no prefix or case-insensitive match)', async () => {
      expect((await list('/tasks?tag=od')).tasks).toEqual([])
      expect((await list('/tasks?tag=ODD')).tasks).toEqual([])
    })

    it('matches a percent-encoded tag with spaces, & and non-ASCII', async () => {
      const { tasks } = await list(`/tasks?tag=${encodeURIComponent(TAG_WITH_SPECIALS)}`)
      expect(tasks).toEqual(withTag(TAG_WITH_SPECIALS))
      expect(tasks).toHaveLength(4)
    })

    it('carries the tag, percent-encoded, in the Link header', async () => {
      const encoded = encodeURIComponent(TAG_WITH_SPECIALS)
      const { tasks, link } = await list(`/tasks?tag=${encoded}&limit=3`)
      const expected = withTag(TAG_WITH_SPECIALS).slice(0, 3)
      expect(tasks).toEqual(expected)
      expect(link).toBe(`</tasks?limit=3&after=${expected[2]?.id}&tag=${encoded}>; rel="next"`)
    })

    it('pages through one tag by following Link headers', async () => {
      const pages = await follow('/tasks?tag=odd&limit=3')
      expect(pages.map((page) => page.length)).toEqual([3, 1])
      expect(pages.flat()).toEqual(withTag('odd'))
    })

    it('returns 400 for an empty tag', async () => {
      await expectError(
        await get(server, '/tasks?tag='),
        400,
        'Query parameter "tag" must be at least 1 character long.',
      )
    })

    it('returns 400 for a tag longer than 64 characters', async () => {
      await expectError(
        await get(server, `/tasks?tag=${'t'.repeat(65)}`),
        400,
        'Query parameter "tag" must be at most 64 characters long.',
      )
    })
  })
})

describe('GET /tasks with order and before', () => {
  const newestFirst = () => [...all].reverse()

  it('returns every task newest first for order=desc, without Link', async () => {
    const { tasks, link } = await list('/tasks?order=desc')
    expect(tasks).toEqual(newestFirst())
    expect(link).toBeNull()
  })

  it('treats order=asc as the default', async () => {
    expect((await list('/tasks?order=asc&limit=5')).tasks).toEqual(all.slice(0, 5))
  })

  it('returns the newest N tasks and a Link carrying before and order=desc', async () => {
    const { tasks, link } = await list('/tasks?limit=5&order=desc')
    expect(tasks).toEqual(newestFirst().slice(0, 5))
    expect(link).toBe(`</tasks?limit=5&before=${tasks[4]?.id}&order=desc>; rel="next"`)
  })

  it('pages through every task newest first by following Link headers', async () => {
    const pages = await follow('/tasks?limit=5&order=desc')
    expect(pages.map((page) => page.length)).toEqual([5, 5, 2])
    expect(pages.flat()).toEqual(newestFirst())
  })

  it('pages through one tag newest first, the Link carrying the tag', async () => {
    const encoded = encodeURIComponent(TAG_WITH_SPECIALS)
    const { tasks, link } = await list(`/tasks?limit=3&order=desc&tag=${encoded}`)
    const expected = withTag(TAG_WITH_SPECIALS).reverse()
    expect(tasks).toEqual(expected.slice(0, 3))
    expect(link).toBe(
      `</tasks?limit=3&before=${expected[2]?.id}&order=desc&tag=${encoded}>; rel="next"`,
    )
    expect((await follow(`/tasks?limit=3&order=desc&tag=${encoded}`)).flat()).toEqual(expected)
  })

  it('returns only tasks below before, in either order', async () => {
    const pivot = all[6] as Task
    expect((await list(`/tasks?before=${pivot.id}`)).tasks).toEqual(all.slice(0, 6))
    expect((await list(`/tasks?before=${pivot.id}&order=desc`)).tasks).toEqual(
      all.slice(0, 6).reverse(),
    )
  })

  it('keeps both bounds in the Link when after and before are given together', async () => {
    const [low, high] = [all[1] as Task, all[10] as Task]
    const ascending = await list(`/tasks?after=${low.id}&before=${high.id}&limit=3`)
    expect(ascending.tasks).toEqual(all.slice(2, 5))
    expect(ascending.link).toBe(
      `</tasks?limit=3&after=${all[4]?.id}&before=${high.id}>; rel="next"`,
    )
    expect((await follow(`/tasks?after=${low.id}&before=${high.id}&limit=3`)).flat()).toEqual(
      all.slice(2, 10),
    )
    const descending = await list(`/tasks?after=${low.id}&before=${high.id}&limit=3&order=desc`)
    expect(descending.tasks).toEqual(all.slice(7, 10).reverse())
    expect(descending.link).toBe(
      `</tasks?limit=3&before=${all[7]?.id}&order=desc&after=${low.id}>; rel="next"`,
    )
    expect(
      (await follow(`/tasks?after=${low.id}&before=${high.id}&limit=3&order=desc`)).flat(),
    ).toEqual(all.slice(2, 10).reverse())
  })

  it('returns [] for before=1', async () => {
    expect((await list('/tasks?before=1&order=desc')).tasks).toEqual([])
  })

  it.each([
    ['order=up', 'Query parameter "order" must be "asc" or "desc".'],
    ['order=DESC', 'Query parameter "order" must be "asc" or "desc".'],
    ['order=', 'Query parameter "order" must be "asc" or "desc".'],
    ['order=1', 'Query parameter "order" must be "asc" or "desc".'],
    ['before=0', 'Query parameter "before" must be at least 1.'],
    ['before=-1', 'Query parameter "before" must be at least 1.'],
    ['before=x', 'Query parameter "before" must be an integer.'],
    ['before=9007199254740992', 'Query parameter "before" must be at most 9007199254740991.'],
    ['order=desc&order=asc', 'Query parameter "order" must be given only once.'],
  ])('returns 400 for %s', async (query, message) => {
    await expectError(await get(server, `/tasks?${query}`), 400, message)
  })
})

describe('GET /tasks with Accept: application/x-ndjson', () => {
  const NDJSON = { accept: 'application/x-ndjson' }

  /** The response as NDJSON: its Content-Type checked, one Task per line. */
  async function ndjson(path: string, headers: Record<string, string> = NDJSON) {
    const response = await get(server, path, { headers })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/x-ndjson')
    const text = await response.text()
    expect(text === '' || text.endsWith('\n')).toBe(true)
    const lines = text.split('\n').slice(0, -1)
    return {
      tasks: lines.map((line) => JSON.parse(line) as Task),
      link: response.headers.get('link'),
    }
  }

  it('returns every task, one JSON object per line, in either order', async () => {
    expect((await ndjson('/tasks')).tasks).toEqual(all)
    expect((await ndjson('/tasks?order=desc')).tasks).toEqual([...all].reverse())
    expect((await ndjson('/tasks?tag=odd')).tasks).toEqual(withTag('odd'))
  })

  it('returns a page with the same Link as the JSON page', async () => {
    const page = await ndjson('/tasks?limit=5')
    expect(page.tasks).toEqual(all.slice(0, 5))
    expect(page.link).toBe((await list('/tasks?limit=5')).link)
    const desc = await ndjson('/tasks?limit=5&order=desc')
    expect(desc.tasks).toEqual([...all].reverse().slice(0, 5))
    expect(desc.link).toBe((await list('/tasks?limit=5&order=desc')).link)
  })

  it('serves the JSON and NDJSON forms of one page apart, each as asked', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await list('/tasks?limit=4')).tasks).toEqual(all.slice(0, 4))
      expect((await ndjson('/tasks?limit=4')).tasks).toEqual(all.slice(0, 4))
    }
  })

  it('returns an empty body for no tasks', async () => {
    expect(await ndjson('/tasks?limit=0')).toEqual({ tasks: [], link: null })
    expect((await ndjson('/tasks?tag=nope')).tasks).toEqual([])
  })

  it.each([
    'application/x-ndjson, application/json;q=0.5',
    'application/json;q=0.1, application/x-ndjson',
    'application/x-ndjson, */*;q=0.1',
    'APPLICATION/X-NDJSON',
  ])('prefers NDJSON for Accept: %s', async (accept) => {
    expect((await ndjson('/tasks?limit=2', { accept })).tasks).toEqual(all.slice(0, 2))
  })

  it.each([
    '*/*',
    'application/json',
    'application/json, application/x-ndjson',
    'application/x-ndjson;q=0.5, application/*',
    'text/html',
  ])('answers JSON for Accept: %s', async (accept) => {
    const response = await get(server, '/tasks?limit=2', { headers: { accept } })
    expect(await jsonBody<Task[]>(response)).toEqual(all.slice(0, 2))
  })

  it('says that the answer depends on Accept (Vary)', async () => {
    for (const headers of [NDJSON, {}]) {
      const response = await get(server, '/tasks?limit=2', { headers })
      expect(response.headers.get('vary')).toMatch(/\bAccept\b/i)
      await response.body?.cancel()
    }
  })
})

describe('GET /tasks with several unknown query parameters', () => {
  it('returns 400 naming every one of them', async () => {
    await expectError(
      await get(server, '/tasks?limt=5&ofset=2&limit=1'),
      400,
      'Unknown query parameters "limt", "ofset".',
    )
  })
})

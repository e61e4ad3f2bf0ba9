// Planning and history against a stubbed fetch: what the client sends for each option (the
// server's sorting and filters are tested in the server's suite), how it follows a Link
// whatever it carries, and what it checks of the answers.
import { describe, expect, it } from 'vitest'
import { createClient, type HistoryEntry, type Task, ValidationError } from '../src/index.js'
import { validateResponses } from '../src/validate.js'
import { error, fast, json, life, recordingFetch, streamed } from './fake-fetch.js'

const task = (id: number, fields: Partial<Task> = {}): Task => ({
  ...life,
  id,
  name: `t${id}`,
  ...fields,
})

const entry = (seq: number, fields: Partial<HistoryEntry> = {}): HistoryEntry => ({
  seq,
  at: '2026-11-25T09:30:00.000Z',
  actor: 'local',
  type: 'updated',
  changes: { priority: { from: 0, to: seq % 4 } },
  ...fields,
})

describe('listTasks: sort and planning filters', () => {
  it('sends sort, order and every filter as the contract names them', async () => {
    const { calls, fetch } = recordingFetch(() => json([]))
    const client = createClient({ baseUrl: 'http://h/api', fetch })
    await client.listTasks(10, {
      sort: 'due',
      order: 'desc',
      priority: 3,
      dueFrom: '2026-12-01',
      dueTo: '2026-12-31',
      tz: 'Europe/Paris',
      overdue: true,
      q: 'release notés',
      tag: 'docs',
      status: 'open',
      list: 2,
    })
    const url = new URL(calls[0]?.url ?? '')
    expect(url.pathname).toBe('/api/tasks')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      limit: '10',
      sort: 'due',
      order: 'desc',
      priority: '3',
      dueFrom: '2026-12-01',
      dueTo: '2026-12-31',
      tz: 'Europe/Paris',
      overdue: 'true',
      q: 'release notés',
      tag: 'docs',
      status: 'open',
      list: '2',
    })
    expect(calls[0]?.url).toContain('q=release+not%C3%A9s')
  })

  it('sends overdue=false for false, and nothing of what is not given', async () => {
    const { calls, fetch } = recordingFetch(() => json([]))
    const client = createClient({ baseUrl: 'http://h', fetch })
    await client.listTasks(undefined, { overdue: false, priority: 0 })
    await client.listTasks(undefined, { sort: 'position' })
    expect(calls.map((call) => call.url)).toEqual([
      'http://h/tasks?priority=0&overdue=false',
      'http://h/tasks?sort=position',
    ])
  })

  it('exports with the filters too (in id order, so that a broken export can resume)', async () => {
    const { calls, fetch } = recordingFetch(() =>
      streamed([`${JSON.stringify(task(1))}\n`], 'application/x-ndjson'),
    )
    const client = createClient({ baseUrl: 'http://h', fetch })
    const exported: Task[] = []
    for await (const one of client.exportTasks({ q: 'docs', priority: 2, overdue: true })) {
      exported.push(one)
    }
    expect(exported).toEqual([task(1)])
    expect(calls[0]?.url).toBe('http://h/tasks?priority=2&overdue=true&q=docs')
    // A sort from JavaScript, which the types refuse, is not sent either.
    const sorted = { sort: 'due', status: 'open' } as Parameters<typeof client.exportTasks>[0]
    for await (const one of client.exportTasks(sorted)) exported.push(one)
    expect(calls[1]?.url).toBe('http://h/tasks?status=open')
  })
})

describe('tasks(): pages as the Link header names them', () => {
  // Ordered by priority, highest first: the ids say nothing of where a page starts.
  const sorted = [task(4, { priority: 3 }), task(1, { priority: 2 }), task(3, { priority: 1 })]
  sorted.push(task(2), task(5))

  /** Pages of `sorted` by an opaque cursor (an offset in base64url), as the server will send. */
  function cursorFetch({ link = true } = {}) {
    return recordingFetch((_call, url) => {
      const query = new URL(url).searchParams
      const limit = Number(query.get('limit'))
      const cursor = query.get('cursor')
      const start = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString())
      const page = sorted.slice(start, start + limit)
      const next = Buffer.from(String(start + limit)).toString('base64url')
      const more = link && start + limit < sorted.length
      return json(
        page,
        200,
        more
          ? {
              link: `</tasks?limit=${limit}&sort=priority&order=desc&status=open&cursor=${next}>; rel="next"`,
            }
          : {},
      )
    })
  }

  it('follows a cursor Link over a sorted listing, sending its query as it is', async () => {
    const { calls, fetch } = cursorFetch()
    const client = createClient({ baseUrl: 'http://h/api', fetch })
    const seen: number[] = []
    const walk = client.tasks({ sort: 'priority', order: 'desc', status: 'open', pageSize: 2 })
    for await (const one of walk) seen.push(one.id)
    expect(seen).toEqual([4, 1, 3, 2, 5])
    expect(calls.map((call) => call.url)).toEqual([
      'http://h/api/tasks?limit=2&order=desc&sort=priority&status=open',
      'http://h/api/tasks?limit=2&sort=priority&order=desc&status=open&cursor=Mg',
      'http://h/api/tasks?limit=2&sort=priority&order=desc&status=open&cursor=NA',
    ])
  })

  it('ends a sorted walk at a full page without a Link rather than guess at an id cursor', async () => {
    const { calls, fetch } = cursorFetch({ link: false })
    const client = createClient({ baseUrl: 'http://h', fetch })
    const seen: number[] = []
    for await (const one of client.tasks({ sort: 'priority', pageSize: 2 })) seen.push(one.id)
    expect(seen).toEqual([4, 1])
    expect(calls).toHaveLength(1)
  })

  it('still asks once more after a full page without a Link in id order, with the filters', async () => {
    const { calls, fetch } = recordingFetch((call) => json(call === 0 ? [task(1), task(2)] : []))
    const client = createClient({ baseUrl: 'http://h', fetch })
    const seen: number[] = []
    for await (const one of client.tasks({ q: 'docs', sort: 'id', pageSize: 2 })) seen.push(one.id)
    expect(seen).toEqual([1, 2])
    expect(calls.map((call) => call.url)).toEqual([
      'http://h/tasks?limit=2&sort=id&q=docs',
      'http://h/tasks?limit=2&after=2&sort=id&q=docs',
    ])
  })
})

describe('moveTask', () => {
  it.each([
    [{ before: 3 }, {}, { before: 3 }],
    [{ after: 3 }, {}, { after: 3 }],
    ['top' as const, {}, { to: 'top' }],
    ['bottom' as const, { listId: 2 }, { to: 'bottom', listId: 2 }],
    [{ before: 3 }, { listId: 2 }, { before: 3, listId: 2 }],
  ])('moves to %o with %o as POST /tasks/{id}/move %o', async (to, options, body) => {
    const { calls, fetch } = recordingFetch(() => json(task(7)))
    const client = createClient({ baseUrl: 'http://h/api', fetch })
    expect(await client.moveTask(7, to, options)).toEqual(task(7))
    expect(calls[0]?.url).toBe('http://h/api/tasks/7/move')
    expect(calls[0]?.init?.method).toBe('POST')
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual(body)
  })

  it('sends If-Match, and retries with the same Idempotency-Key, as updateTask does', async () => {
    const { calls, fetch } = recordingFetch((call) => (call < 2 ? error(503) : json(task(7))))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    await client.moveTask(7, 'top', { ifMatch: 4 })
    expect(calls).toHaveLength(3)
    expect(calls.map((call) => call.headers['if-match'])).toEqual(['"4"', '"4"', '"4"'])
    const keys = calls.map((call) => call.headers['idempotency-key'])
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(new Set(keys).size).toBe(1)
  })

  it("sends the caller's own Idempotency-Key and an ETag as it is", async () => {
    const { calls, fetch } = recordingFetch(() => json(task(7)))
    const client = createClient({ baseUrl: 'http://h', fetch })
    await client.moveTask(7, { after: 1 }, { idempotencyKey: 'move-7', ifMatch: '"5", "6"' })
    expect(calls[0]?.headers).toMatchObject({ 'idempotency-key': 'move-7', 'if-match': '"5", "6"' })
  })

  it('checks the answer against the Task schema with validateResponses', async () => {
    const { fetch } = recordingFetch(() => json({ ...task(7), priority: 9 }))
    const client = createClient({ baseUrl: 'http://h', fetch, validate: validateResponses })
    const refused = await client.moveTask(7, 'top').catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ValidationError)
    expect((refused as ValidationError).message).toContain('priority')
  })
})

describe('taskHistory and history()', () => {
  it('reads one page with limit and before', async () => {
    const { calls, fetch } = recordingFetch(() => json([entry(9), entry(8)]))
    const client = createClient({ baseUrl: 'http://h/api', fetch, validate: validateResponses })
    expect(await client.taskHistory(7, { limit: 2, before: 10 })).toEqual([entry(9), entry(8)])
    await client.taskHistory(7)
    expect(calls.map((call) => call.url)).toEqual([
      'http://h/api/tasks/7/history?limit=2&before=10',
      'http://h/api/tasks/7/history',
    ])
  })

  it('walks every page, newest first, following the Link header', async () => {
    const seqs = [12, 9, 7, 4, 1]
    const { calls, fetch } = recordingFetch((_call, url) => {
      const query = new URL(url).searchParams
      const limit = Number(query.get('limit'))
      const before = Number(query.get('before') ?? Number.MAX_SAFE_INTEGER)
      const page = seqs.filter((seq) => seq < before).slice(0, limit)
      const last = page.at(-1)
      const more = page.length === limit && last !== undefined && last > 1
      return json(
        page.map((seq) => entry(seq)),
        200,
        more ? { link: `</tasks/7/history?limit=${limit}&before=${last}>; rel="next"` } : {},
      )
    })
    const client = createClient({ baseUrl: 'http://h', fetch })
    const seen: number[] = []
    for await (const one of client.history(7, { pageSize: 2 })) seen.push(one.seq)
    expect(seen).toEqual(seqs)
    expect(calls.map((call) => call.url)).toEqual([
      'http://h/tasks/7/history?limit=2',
      'http://h/tasks/7/history?limit=2&before=9',
      'http://h/tasks/7/history?limit=2&before=4',
    ])
  })

  it('pages by the last seq when no Link can be read, and starts before `before`', async () => {
    const { calls, fetch } = recordingFetch((call) => json(call === 0 ? [entry(5), entry(3)] : []))
    const client = createClient({ baseUrl: 'http://h', fetch })
    const seen: number[] = []
    for await (const one of client.history(7, { pageSize: 2, before: 6 })) seen.push(one.seq)
    expect(seen).toEqual([5, 3])
    expect(calls.map((call) => new URL(call.url).search)).toEqual([
      '?limit=2&before=6',
      '?limit=2&before=3',
    ])
  })

  it('rejects an entry that departs from the contract with validateResponses', async () => {
    const { fetch } = recordingFetch(() => json([entry(3), { ...entry(2), type: 'renamed' }]))
    const client = createClient({ baseUrl: 'http://h', fetch, validate: validateResponses })
    const refused = await client.taskHistory(7).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ValidationError)
    expect((refused as ValidationError).message).toContain('[1].type')
  })

  it('rejects a page size that is not a positive integer', async () => {
    const { fetch } = recordingFetch(() => json([]))
    const client = createClient({ baseUrl: 'http://h', fetch })
    await expect(client.history(7, { pageSize: 0 }).next()).rejects.toBeInstanceOf(RangeError)
  })
})

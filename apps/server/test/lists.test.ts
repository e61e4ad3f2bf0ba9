// GET /lists, POST /list, GET, PATCH and DELETE /lists/{id}, as the lists' owners, members
// and strangers see them (lists-tasks.test.ts: the tasks in lists).
import type { List } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccessStorage } from '../src/storage/access-port.js'
import type { Storage } from '../src/storage/open-storage.js'
import {
  ADMIN_TOKEN,
  addMember,
  as,
  type Caller,
  createList,
  createTaskIn,
  expectErrorBody,
  expectStatus,
  principal,
} from './support/access.js'
import { subscribe } from './support/events.js'
import { startServer, type TestServer } from './support/server.js'

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

let server: TestServer
/** While set, every access write waits for it (a request kept in flight). */
let held: Promise<void> | undefined
let admin: Caller
let alice: Caller
let bob: Caller

beforeAll(async () => {
  server = await startServer({
    settings: { apiToken: ADMIN_TOKEN },
    wrapStorage: (storage): Storage => {
      const access: AccessStorage = new Proxy(storage.access, {
        get(target, name) {
          const value = Reflect.get(target, name)
          if (name !== 'write') return typeof value === 'function' ? value.bind(target) : value
          return async (...args: Parameters<AccessStorage['write']>) => {
            await held
            return target.write(...args)
          }
        },
      })
      return { ...storage, access }
    },
  })
  admin = as(server, ADMIN_TOKEN)
  alice = await principal(server, 'alice')
  bob = await principal(server, 'bob')
})

afterAll(async () => {
  await server?.close()
})

const seq = (response: { headers: Record<string, unknown> }) =>
  Number(response.headers['tasklane-seq'])

describe('a new database', () => {
  it('holds list 1, "Tasks", which the admin reads and a new principal does not', async () => {
    const lists = expectStatus<List[]>(await admin.get('/lists'), 200)
    expect(lists).toEqual([
      {
        id: 1,
        name: 'Tasks',
        version: 1,
        createdAt: expect.stringMatching(TIME),
        updatedAt: expect.stringMatching(TIME),
      },
    ])
    expect(expectStatus(await alice.get('/lists'), 200)).toEqual([])
    expectErrorBody(await alice.get('/lists/1'), 404, 'List 1 does not exist.')
  })
})

describe('POST /list', () => {
  it('returns 201 with the list, its Location and ETag "1", its creator its owner', async () => {
    const response = await alice.post('/list', { name: 'Groceries' })
    const list = expectStatus<List>(response, 201)
    expect(list).toEqual({
      id: expect.any(Number),
      name: 'Groceries',
      version: 1,
      createdAt: expect.stringMatching(TIME),
      updatedAt: list.createdAt,
    })
    expect(response.headers.location).toBe(`/lists/${list.id}`)
    expect(response.headers.etag).toBe('"1"')
    expect(seq(response)).toBeGreaterThan(0)
    expect(expectStatus(await alice.get(`/lists/${list.id}/members`), 200)).toEqual([
      { principal: 'alice', role: 'owner' },
    ])
  })

  it('replays the first 201 for a repeat with its Idempotency-Key, with Idempotent-Replayed', async () => {
    const key = { 'idempotency-key': 'list-once' }
    const first = await alice.post('/list', { name: 'Once' }, key)
    const again = await alice.post('/list', { name: 'Once' }, key)
    expect(again.statusCode).toBe(201)
    expect(again.json()).toEqual(first.json())
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.headers.location).toBe(first.headers.location)
    expect(seq(again)).toBe(seq(first))
    const named = expectStatus<List[]>(await alice.get('/lists'), 200).filter(
      (l) => l.name === 'Once',
    )
    expect(named).toHaveLength(1)
  })

  it('returns 422 for the same Idempotency-Key with another body', async () => {
    const key = { 'idempotency-key': 'list-422' }
    expectStatus(await alice.post('/list', { name: 'First' }, key), 201)
    expectErrorBody(
      await alice.post('/list', { name: 'Second' }, key),
      422,
      'This Idempotency-Key was already used with a different request (another method, task or body).',
    )
  })

  it('returns 409 for the same Idempotency-Key while the first request is in flight', async () => {
    let release = () => {}
    held = new Promise((resolve) => {
      release = resolve
    })
    const key = { 'idempotency-key': 'list-in-flight' }
    const first = alice.post('/list', { name: 'Slow' }, key)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expectErrorBody(
      await alice.post('/list', { name: 'Slow' }, key),
      409,
      'A request with this Idempotency-Key is still in progress; retry after it completes.',
    )
    held = undefined
    release()
    expectStatus(await first, 201)
  })
})

describe('GET /lists', () => {
  it('returns only the lists the caller reads, ascending; the admin reads them all', async () => {
    const carol = await principal(server, 'carol')
    const mine = [await createList(carol, 'C1'), await createList(carol, 'C2')]
    const shared = await createList(bob, 'Shared with carol')
    await addMember(bob, shared.id, 'carol', 'viewer')
    const theirs = expectStatus<List[]>(await carol.get('/lists'), 200)
    expect(theirs).toEqual([...mine, shared])
    const all = expectStatus<List[]>(await admin.get('/lists'), 200).map((l) => l.id)
    expect(all).toEqual([...all].sort((a, b) => a - b))
    expect(all).toEqual(expect.arrayContaining([1, ...theirs.map((l) => l.id)]))
  })

  it('pages with limit and after, a full page linking to the next', async () => {
    const dave = await principal(server, 'dave')
    const lists = [
      await createList(dave, 'D1'),
      await createList(dave, 'D2'),
      await createList(dave, 'D3'),
    ]
    const [one, two, three] = lists as [List, List, List]
    const first = await dave.get('/lists?limit=2')
    expect(first.json()).toEqual([one, two])
    expect(first.headers.link).toBe(`</lists?limit=2&after=${two.id}>; rel="next"`)
    const second = await dave.get(`/lists?limit=2&after=${two.id}`)
    expect(second.json()).toEqual([three])
    expect(second.headers.link).toBeUndefined()
    const exact = await dave.get(`/lists?limit=1&after=${two.id}`)
    expect(exact.json()).toEqual([three])
    expect(exact.headers.link).toBeUndefined()
    expect((await dave.get('/lists?limit=0')).json()).toEqual([])
  })

  it('returns 400 naming an unknown or out-of-range query parameter', async () => {
    expectErrorBody(await alice.get('/lists?limt=2'), 400, 'Unknown query parameter "limt".')
    expectErrorBody(
      await alice.get('/lists?after=-1'),
      400,
      'Query parameter "after" must be at least 0.',
    )
  })
})

describe('GET /lists/{id}', () => {
  it('returns the list with its ETag, and 304 for If-None-Match naming it', async () => {
    const list = await createList(alice, 'Read me')
    const response = await alice.get(`/lists/${list.id}`)
    expect(expectStatus(response, 200)).toEqual(list)
    expect(response.headers.etag).toBe('"1"')
    const same = await alice.get(`/lists/${list.id}`, { 'if-none-match': '"1"' })
    expect(same.statusCode).toBe(304)
    expect(same.body).toBe('')
    expect(same.headers.etag).toBe('"1"')
    expect((await alice.get(`/lists/${list.id}`, { 'if-none-match': '"2"' })).statusCode).toBe(200)
  })

  it('returns 404 for a list that does not exist, and 400 for an id that is not one', async () => {
    expectErrorBody(await alice.get('/lists/999999'), 404, 'List 999999 does not exist.')
    expectErrorBody(await alice.get('/lists/0'), 400, 'Path parameter "id" must be at least 1.')
  })
})

describe('PATCH /lists/{id}', () => {
  it('renames the list: version 2, its ETag, a new seq', async () => {
    const list = await createList(alice, 'Old name')
    const response = await alice.patch(`/lists/${list.id}`, { name: 'New name' })
    expect(expectStatus(response, 200)).toEqual({
      ...list,
      name: 'New name',
      version: 2,
      updatedAt: expect.stringMatching(TIME),
    })
    expect(response.headers.etag).toBe('"2"')
    expect((await alice.get(`/lists/${list.id}`)).json()).toMatchObject({ name: 'New name' })
  })

  it('answers 200 with the list as it was for the name it already has (same version and seq)', async () => {
    const list = await createList(alice, 'Same')
    const created = seq(await alice.get(`/lists/${list.id}/members`))
    const response = await alice.patch(
      `/lists/${list.id}`,
      { name: 'Same' },
      { 'content-type': 'application/json' },
    )
    expect(expectStatus(response, 200)).toEqual(list)
    expect(response.headers.etag).toBe('"1"')
    expect(seq(response)).toBeLessThanOrEqual(created)
  })

  it('returns 412 with the current ETag when If-Match names another, and changes nothing', async () => {
    const list = await createList(alice, 'Guarded')
    await alice.patch(`/lists/${list.id}`, { name: 'Guarded 2' })
    const response = await alice.patch(`/lists/${list.id}`, { name: 'Lost' }, { 'if-match': '"1"' })
    expectErrorBody(
      response,
      412,
      `List ${list.id} has changed: its current ETag is "2", which If-Match does not name; nothing was changed.`,
    )
    expect(response.headers.etag).toBe('"2"')
    expect((await alice.get(`/lists/${list.id}`)).json()).toMatchObject({ name: 'Guarded 2' })
    expectStatus(
      await alice.patch(`/lists/${list.id}`, { name: 'Won' }, { 'if-match': '"2"' }),
      200,
    )
  })

  it('returns 400 for {}, for an unknown field and for a blank name', async () => {
    const list = await createList(alice, 'Strict')
    const url = `/lists/${list.id}`
    expectErrorBody(
      await alice.patch(url, {}),
      400,
      'The patch changes nothing: the request body must have at least one of "name".',
    )
    expectErrorBody(
      await alice.patch(url, { id: 3 }),
      400,
      'Field "id" is not allowed; a ListPatch has only an optional "name".',
    )
    expectErrorBody(
      await alice.patch(url, { name: '  ' }),
      400,
      'Field "name" must contain at least one non-whitespace character.',
    )
  })

  it('returns 415 for a body that is not JSON', async () => {
    const list = await createList(alice, 'Typed')
    const response = await alice.patch(`/lists/${list.id}`, 'name=x', {
      'content-type': 'text/plain',
    })
    expectErrorBody(
      response,
      415,
      'Content-Type must be application/merge-patch+json or application/json.',
    )
  })
})

describe('DELETE /lists/{id}', () => {
  it('returns 204 and deletes every task of the list, each with a seq and a deleted event of its own', async () => {
    const list = await createList(alice, 'Doomed')
    const tasks = [await createTaskIn(alice, list.id, 'a'), await createTaskIn(alice, list.id, 'b')]
    const before = seq(await alice.get('/tasks'))
    const response = await alice.delete(`/lists/${list.id}`)
    expect({ status: response.statusCode, body: response.body }).toEqual({ status: 204, body: '' })
    for (const task of tasks) {
      expectErrorBody(await alice.get(`/tasks/${task.id}`), 404, `Task ${task.id} does not exist.`)
    }
    expectErrorBody(await alice.get(`/lists/${list.id}`), 404, `List ${list.id} does not exist.`)
    expect((await alice.get('/lists')).json()).not.toContainEqual(
      expect.objectContaining({ id: list.id }),
    )
    // The admin still reads every list: the feed's backlog shows each removal at its seq.
    const feed = await subscribe(server, `/tasks/events?after=${before}`, {
      authorization: `Bearer ${ADMIN_TOKEN}`,
    })
    try {
      const events = await feed.untilEvents(2)
      expect(events.map(({ type, task }) => ({ type, id: task.id }))).toEqual(
        tasks.map((task) => ({ type: 'deleted', id: task.id })),
      )
      const [first, second] = events.map((event) => event.seq) as [number, number]
      expect(first).toBeGreaterThan(before)
      expect(second).toBeGreaterThan(first)
      expect(seq(response)).toBeGreaterThan(second)
    } finally {
      feed.close()
    }
  })

  it('returns 412 for an If-Match that names another ETag, deleting nothing', async () => {
    const list = await createList(alice, 'Kept')
    const response = await alice.delete(`/lists/${list.id}`, { 'if-match': '"5"' })
    expectErrorBody(
      response,
      412,
      `List ${list.id} has changed: its current ETag is "1", which If-Match does not name; nothing was changed.`,
    )
    expectStatus(await alice.get(`/lists/${list.id}`), 200)
  })

  it('returns 404 for a list deleted already', async () => {
    const list = await createList(alice, 'Twice')
    expect((await alice.delete(`/lists/${list.id}`)).statusCode).toBe(204)
    expectErrorBody(await alice.delete(`/lists/${list.id}`), 404, `List ${list.id} does not exist.`)
  })
})

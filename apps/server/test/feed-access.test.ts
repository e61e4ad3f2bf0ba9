import type { List, Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { subscribe } from './support/events.js'
import { startServer, type TestServer } from './support/server.js'

// The change feed under lists and people: a subscriber sees the lists it reads, and when
// it gains or loses one, its stream ends with `event: reset` at the seq of that change,
// after every event before it and none after; a revoked credential's stream ends.

const ADMIN = 'feed-access-admin-token'

let server: TestServer

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: ADMIN } })
})

afterAll(async () => {
  await server?.close()
})

/** A request to the server as the holder of `token`; resolves with the response. */
function call(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

async function json<T>(response: Promise<Response>, status: number): Promise<T> {
  const answer = await response
  expect(answer.status, await answer.clone().text()).toBe(status)
  return (await answer.json()) as T
}

const seqOf = async (response: Promise<Response>) =>
  Number((await response).headers.get('tasklane-seq'))

/** A new list, made by the admin. */
const newList = (name: string) => json<List>(call(ADMIN, 'POST', '/list', { name }), 201)

/** A write token for a new principal of this test. */
async function person(principal: string): Promise<string> {
  const made = await json<{ token: string }>(
    call(ADMIN, 'POST', '/tokens', { name: principal, principal, role: 'write' }),
    201,
  )
  return made.token
}

const addMember = (listId: number, principal: string, role = 'editor') =>
  call(ADMIN, 'PUT', `/lists/${listId}/members/${principal}`, { role })

const newTask = (listId: number, name: string) =>
  json<Task>(call(ADMIN, 'POST', '/task', { name, listId }), 201)

/** The subscriber's feed after what it listed: its listing's seq. */
async function listAndWatch(token: string) {
  const listing = await call(token, 'GET', '/tasks')
  const tasks = (await listing.json()) as Task[]
  const seq = Number(listing.headers.get('tasklane-seq'))
  const feed = await subscribe(server, `/tasks/events?after=${seq}`, {
    authorization: `Bearer ${token}`,
  })
  return { tasks, seq, feed }
}

describe('GET /tasks/events under lists and people', () => {
  it('sends a member only the changes of the lists it reads', async () => {
    const mine = await newList('mine')
    const theirs = await newList('theirs')
    const token = await person('feed-reader')
    await addMember(mine.id, 'feed-reader')
    const { feed } = await listAndWatch(token)
    try {
      await newTask(mine.id, 'for me')
      const last = await seqOf(
        call(ADMIN, 'POST', '/task', { name: 'not for me', listId: theirs.id }),
      )
      await feed.untilSeq(last)
      expect(feed.tasks.map((task) => task.name)).toEqual(['for me'])
    } finally {
      feed.close()
    }
  })

  it('ends with reset at the seq of a list gained, after the events before it and none after', async () => {
    const first = await newList('first')
    const gained = await newList('gained')
    const token = await person('feed-gainer')
    await addMember(first.id, 'feed-gainer')
    const before = await newTask(gained.id, 'in the list before it was gained')
    const { feed } = await listAndWatch(token)
    try {
      const earlier = await newTask(first.id, 'before the change')
      const change = await seqOf(addMember(gained.id, 'feed-gainer'))
      await newTask(first.id, 'after the change')
      expect(await feed.ended).toBe('end')
      expect(feed.reset()).toBe(change)
      expect(feed.tasks.map((task) => task.id)).toEqual([earlier.id])
      // Listing again shows the gained list's tasks; following from there goes on.
      const again = await listAndWatch(token)
      again.feed.close()
      expect(again.tasks.map((task) => task.name)).toContain(before.name)
    } finally {
      feed.close()
    }
  })

  it('lets nothing of a lost list through after the loss is committed', async () => {
    const kept = await newList('kept')
    const lost = await newList('lost')
    const token = await person('feed-loser')
    await addMember(kept.id, 'feed-loser')
    await addMember(lost.id, 'feed-loser')
    const { feed } = await listAndWatch(token)
    try {
      const last = await newTask(lost.id, 'last one seen')
      const removal = await seqOf(call(ADMIN, 'DELETE', `/lists/${lost.id}/members/feed-loser`))
      await newTask(lost.id, 'never seen')
      expect(await feed.ended).toBe('end')
      expect(feed.reset()).toBe(removal)
      expect(feed.events.every((event) => event.seq < removal)).toBe(true)
      expect(feed.tasks.map((task) => task.id)).toEqual([last.id])
      const again = await listAndWatch(token)
      again.feed.close()
      expect(again.tasks.every((task) => task.listId !== lost.id)).toBe(true)
    } finally {
      feed.close()
    }
  })

  it('resets at once a feed that resumes from before a change of its rights', async () => {
    const list = await newList('resumed')
    const token = await person('feed-resumer')
    const { seq, feed: first } = await listAndWatch(token)
    first.close()
    const change = await seqOf(addMember(list.id, 'feed-resumer', 'viewer'))
    const resumed = await subscribe(server, '/tasks/events', {
      authorization: `Bearer ${token}`,
      'last-event-id': String(seq),
    })
    expect(await resumed.ended).toBe('end')
    expect(resumed.reset()).toBe(change)
    expect(resumed.events).toEqual([])
  })

  it("goes on for an admin and for other principals when someone else's rights change", async () => {
    const list = await newList('others')
    const token = await person('feed-bystander')
    await addMember(list.id, 'feed-bystander', 'viewer')
    const bystander = await listAndWatch(token)
    const admin = await listAndWatch(ADMIN)
    try {
      await addMember(list.id, 'feed-someone-else', 'viewer')
      const after = await newTask(list.id, 'after the other change')
      await bystander.feed.untilTasks(1)
      await admin.feed.untilTasks(1)
      expect(bystander.feed.tasks.map((task) => task.id)).toEqual([after.id])
      expect(bystander.feed.reset()).toBeUndefined()
      expect(admin.feed.reset()).toBeUndefined()
    } finally {
      bystander.feed.close()
      admin.feed.close()
    }
  })

  it("ends a revoked token's stream within 5 s", async () => {
    const made = await json<{ id: number; token: string }>(
      call(ADMIN, 'POST', '/tokens', { name: 'to revoke', principal: 'feed-revoked' }),
      201,
    )
    const { feed } = await listAndWatch(made.token)
    const revoked = Date.now()
    expect((await call(ADMIN, 'DELETE', `/tokens/${made.id}`)).status).toBe(204)
    expect(await feed.ended).toBe('end')
    expect(Date.now() - revoked).toBeLessThan(5_000)
    expect((await call(made.token, 'GET', '/tasks/events')).status).toBe(401)
  })

  it('answers 404 before the stream for a list the caller cannot read, as for one that does not exist', async () => {
    const hidden = await newList('hidden')
    const token = await person('feed-outsider')
    const [forHidden, forMissing] = await Promise.all([
      call(token, 'GET', `/tasks/events?list=${hidden.id}`),
      call(token, 'GET', '/tasks/events?list=999999'),
    ])
    expect(forHidden.status).toBe(404)
    expect(forMissing.status).toBe(404)
    expect(await forHidden.json()).toEqual({
      code: 404,
      message: `List ${hidden.id} does not exist.`,
    })
    expect(await forMissing.json()).toEqual({ code: 404, message: 'List 999999 does not exist.' })
  })
})

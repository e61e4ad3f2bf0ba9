// GET /tasks/events with priority and dueFrom/dueTo/tz: the view stays exact as tasks enter
// and leave it by a change of priority or due (created as one enters, deleted as one leaves,
// nothing for one that never matched), live and in the backlog; an unknown zone is a 400.
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FeedEvent, type Subscription, subscribe } from './support/events.js'
import { expectError, get, patchRaw, postJson, seqOf } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

const newestSeq = async () => seqOf(await get(server, '/tasks?limit=0'))

/** Events as `[type, id]` pairs. */
const kinds = (events: readonly FeedEvent[]) => events.map((event) => [event.type, event.task.id])

async function create(body: Record<string, unknown>): Promise<{ task: Task; seq: number }> {
  const response = await postJson(server, body)
  expect(response.status).toBe(201)
  return { seq: seqOf(response), task: (await response.json()) as Task }
}

/** Changes a task and waits until `feed` has read the change, whether or not it sent it. */
async function change(feed: Subscription, id: number, patch: Record<string, unknown>) {
  const response = await patchRaw(server, id, patch)
  expect(response.status).toBe(200)
  await feed.untilSeq(seqOf(response))
}

describe('GET /tasks/events views by priority and due', () => {
  it('sends a task entering a priority view as created and one leaving it as deleted', async () => {
    const feed = await subscribe(server, `/tasks/events?after=${await newestSeq()}&priority=2`)
    try {
      const { task, seq } = await create({ name: 'Plan', priority: 1 })
      await feed.untilSeq(seq)
      await change(feed, task.id, { priority: 2 })
      await change(feed, task.id, { name: 'Plan again' })
      await change(feed, task.id, { priority: 3 })
      await change(feed, task.id, { priority: 1 })
      const other = await create({ name: 'Other', priority: 2 })
      await feed.untilSeq(other.seq)
      expect(kinds(feed.events)).toEqual([
        ['created', task.id],
        ['updated', task.id],
        ['deleted', task.id],
        ['created', other.task.id],
      ])
    } finally {
      feed.close()
    }
  })

  it('counts a moment on its day in tz across a change of daylight saving time', async () => {
    const path = '/tasks/events?dueFrom=2026-03-30&dueTo=2026-03-30&tz=Europe/Paris'
    const feed = await subscribe(server, `${path}&after=${await newestSeq()}`)
    try {
      // 23:30 on the 29th in Paris (CEST since 01:00 UTC that day): not in the view.
      const { task, seq } = await create({ name: 'Call', due: '2026-03-29T21:30:00Z' })
      await feed.untilSeq(seq)
      // 00:30 on the 30th in Paris: in it.
      await change(feed, task.id, { due: '2026-03-29T22:30:00Z' })
      await change(feed, task.id, { due: '2026-03-30' })
      await change(feed, task.id, { due: null })
      await change(feed, task.id, { due: '2026-03-31' })
      expect(kinds(feed.events)).toEqual([
        ['created', task.id],
        ['updated', task.id],
        ['deleted', task.id],
      ])
    } finally {
      feed.close()
    }
  })

  it('combines priority with due and status', async () => {
    const path = '/tasks/events?priority=3&dueFrom=2026-01-01&status=open'
    const feed = await subscribe(server, `${path}&after=${await newestSeq()}`)
    try {
      const { task, seq } = await create({ name: 'Both', priority: 3 })
      await feed.untilSeq(seq)
      await change(feed, task.id, { due: '2026-02-01' })
      await change(feed, task.id, { status: 'done' })
      await change(feed, task.id, { status: 'open', priority: 2 })
      await change(feed, task.id, { priority: 3 })
      expect(kinds(feed.events)).toEqual([
        ['created', task.id],
        ['deleted', task.id],
        ['created', task.id],
      ])
    } finally {
      feed.close()
    }
  })

  it('sends, in the backlog, a task that left the view as deleted and one in it as it is', async () => {
    const start = await newestSeq()
    const leaving = await create({ name: 'Leaving', priority: 2 })
    const staying = await create({ name: 'Staying', priority: 2 })
    const never = await create({ name: 'Never', priority: 0 })
    await patchRaw(server, leaving.task.id, { priority: 0 })
    const feed = await subscribe(server, `/tasks/events?after=${start}&priority=2`)
    try {
      await feed.untilSeq(await newestSeq())
      expect(kinds(feed.events)).toEqual([['created', staying.task.id]])
      expect(never.task.priority).toBe(0)
    } finally {
      feed.close()
    }
    // From before they existed, a task that left is sent deleted only if the client could
    // hold it: here it was made before `after`.
    const later = await subscribe(server, `/tasks/events?after=${leaving.seq}&priority=2`)
    try {
      await later.untilSeq(await newestSeq())
      expect(kinds(later.events)).toEqual([
        ['created', staying.task.id],
        ['deleted', leaving.task.id],
      ])
    } finally {
      later.close()
    }
  })

  it('returns 400 naming tz for a zone that does not exist', async () => {
    await expectError(
      await get(server, '/tasks/events?dueFrom=2026-01-01&tz=Mars/Olympus'),
      400,
      'Query parameter "tz" must be an IANA time zone name such as Europe/Paris.',
    )
  })
})

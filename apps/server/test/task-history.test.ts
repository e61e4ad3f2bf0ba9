// A task's history: GET /tasks/{id}/history, every create, change, move and delete with its
// seq, time, actor and the fields it changed; paging; who may read it; pruning past
// HISTORY_RETENTION_DAYS.
import type { HistoryEntry, List, Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
import { startServer, type TestServer } from './support/server.js'

let server: TestServer
let alice: Caller
let bob: Caller
let carol: Caller
/** Alice owns it; bob is an editor, carol nothing. */
let list: List
let other: List

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: ADMIN_TOKEN } })
  alice = await principal(server, 'alice')
  bob = await principal(server, 'bob')
  carol = await principal(server, 'carol')
  list = await createList(alice, 'Planned')
  other = await createList(alice, 'Other')
  await addMember(alice, list.id, 'bob', 'editor')
})

afterAll(async () => {
  await server?.close()
})

const seqOf = (response: { headers: Record<string, unknown> }) =>
  Number(response.headers['tasklane-seq'])

async function historyOf(caller: Caller, id: number, query = ''): Promise<HistoryEntry[]> {
  return expectStatus<HistoryEntry[]>(await caller.get(`/tasks/${id}/history${query}`), 200)
}

describe('GET /tasks/{id}/history', () => {
  it('keeps each change with its seq, time, actor and the fields it changed, newest first', async () => {
    const created = await alice.post('/task', { name: 'Plan', listId: list.id, priority: 2 })
    const task = expectStatus<Task>(created, 201)
    const done = await bob.patch(`/tasks/${task.id}`, { status: 'done', notes: 'with care' })
    const changed = expectStatus<Task>(done, 200)
    const second = await createTaskIn(alice, list.id, 'Second')
    const moved = await alice.post(`/tasks/${task.id}/move`, { after: second.id })
    expectStatus(moved, 200)
    const movedTask = moved.json() as Task

    const history = await historyOf(alice, task.id)
    expect(history).toEqual([
      {
        seq: seqOf(moved),
        at: movedTask.updatedAt,
        actor: 'alice',
        type: 'moved',
        changes: { position: { from: changed.position, to: movedTask.position } },
      },
      {
        seq: seqOf(done),
        at: changed.updatedAt,
        actor: 'bob',
        type: 'updated',
        changes: {
          status: { from: 'open', to: 'done' },
          notes: { from: null, to: 'with care' },
          completedAt: { from: null, to: changed.completedAt },
        },
      },
      {
        seq: seqOf(created),
        at: task.createdAt,
        actor: 'alice',
        type: 'created',
        changes: {
          listId: { from: null, to: list.id },
          name: { from: null, to: 'Plan' },
          status: { from: null, to: 'open' },
          priority: { from: null, to: 2 },
          position: { from: null, to: task.position },
        },
      },
    ])
    expect(history.map((entry) => entry.seq)).toEqual(
      [...history.map((entry) => entry.seq)].sort((a, b) => b - a),
    )
  })

  it('records a change that changes nothing not at all', async () => {
    const task = await createTaskIn(alice, list.id, 'Same')
    expectStatus(await alice.patch(`/tasks/${task.id}`, { name: 'Same' }), 200)
    expect((await historyOf(alice, task.id)).map((entry) => entry.type)).toEqual(['created'])
  })

  it('records a PATCH into another list as an update of listId and position', async () => {
    const task = await createTaskIn(alice, list.id, 'Going')
    const moved = expectStatus<Task>(
      await alice.patch(`/tasks/${task.id}`, { listId: other.id }),
      200,
    )
    const [latest] = await historyOf(alice, task.id)
    expect(latest).toMatchObject({
      type: 'updated',
      changes: {
        listId: { from: list.id, to: other.id },
        position: { from: task.position, to: moved.position },
      },
    })
  })

  it('is still answered once the task is deleted, to readers of the list it was in', async () => {
    const task = await createTaskIn(alice, list.id, 'Gone')
    const deleted = await bob.delete(`/tasks/${task.id}`)
    expect(deleted.statusCode).toBe(204)
    expectStatus(await alice.get(`/tasks/${task.id}`), 404)
    const history = await historyOf(bob, task.id)
    expect(history.map(({ type, actor }) => ({ type, actor }))).toEqual([
      { type: 'deleted', actor: 'bob' },
      { type: 'created', actor: 'alice' },
    ])
    expect(history[0]).toMatchObject({ seq: seqOf(deleted), changes: {} })
  })

  it("records each task of a deleted list as deleted by the list's deleter", async () => {
    const doomed = await createList(alice, 'Doomed')
    const task = await createTaskIn(alice, doomed.id, 'In it')
    expect((await alice.delete(`/lists/${doomed.id}`)).statusCode).toBe(204)
    // Nobody but an admin reads a deleted list.
    expectErrorBody(
      await alice.get(`/tasks/${task.id}/history`),
      404,
      `Task ${task.id} does not exist.`,
    )
    const history = await historyOf(as(server, ADMIN_TOKEN), task.id)
    expect(history.map(({ type, actor }) => ({ type, actor }))).toEqual([
      { type: 'deleted', actor: 'alice' },
      { type: 'created', actor: 'alice' },
    ])
  })

  it('answers 404 to a caller who cannot read the list, as for a task that never was', async () => {
    const task = await createTaskIn(alice, list.id, 'Private')
    const hidden = await carol.get(`/tasks/${task.id}/history`)
    const missing = await carol.get('/tasks/999999/history')
    expectErrorBody(hidden, 404, `Task ${task.id} does not exist.`)
    expectErrorBody(missing, 404, 'Task 999999 does not exist.')
  })

  it('pages newest first with limit and before, a Link to the next page when more follow', async () => {
    const task = await createTaskIn(alice, list.id, 'v1')
    for (let version = 2; version <= 5; version++) {
      expectStatus(await alice.patch(`/tasks/${task.id}`, { name: `v${version}` }), 200)
    }
    const all = await historyOf(alice, task.id)
    expect(all).toHaveLength(5)
    const first = await alice.get(`/tasks/${task.id}/history?limit=2`)
    expect(first.json()).toEqual(all.slice(0, 2))
    const link = `</tasks/${task.id}/history?limit=2&before=${all[1]?.seq}>; rel="next"`
    expect(first.headers.link).toBe(link)
    const second = await alice.get(`/tasks/${task.id}/history?limit=2&before=${all[1]?.seq}`)
    expect(second.json()).toEqual(all.slice(2, 4))
    const last = await alice.get(`/tasks/${task.id}/history?limit=2&before=${all[3]?.seq}`)
    expect(last.json()).toEqual(all.slice(4))
    expect(last.headers.link).toBeUndefined()
    const exact = await alice.get(`/tasks/${task.id}/history?limit=5`)
    expect(exact.headers.link).toBeUndefined()
  })

  it('refuses a bad limit, before or an unknown parameter with 400', async () => {
    const task = await createTaskIn(alice, list.id, 'Strict')
    for (const query of ['limit=0', 'limit=x', 'before=0', 'after=1', 'limit=1&limit=2']) {
      const response = await alice.get(`/tasks/${task.id}/history?${query}`)
      expect(response.statusCode, query).toBe(400)
      expect(response.json()).toMatchObject({ code: 400, message: expect.any(String) })
    }
  })
})

describe('pruning', () => {
  it('removes entries past retention, except those an enabled webhook has yet to deliver', async () => {
    const task = await createTaskIn(alice, list.id, 'Old')
    expectStatus(await alice.patch(`/tasks/${task.id}`, { name: 'Older' }), 200)
    const [changed, created] = await historyOf(alice, task.id)
    // Nothing is older than the epoch.
    expect(await server.storage.pruneHistory(0)).toBe(0)
    // A webhook whose cursor stands between the two: the later entry is still owed to it.
    await insertWebhook(server, Number(created?.seq))
    const pruned = await server.storage.pruneHistory(Date.now() + 1000)
    expect(pruned).toBeGreaterThan(0)
    expect(await historyOf(alice, task.id)).toEqual([changed])
    // Once it has delivered everything (or is gone), everything past retention goes.
    await server.testDatabase.use((db) => db.deleteFrom('webhooks').execute())
    await server.storage.pruneHistory(Date.now() + 1000)
    expect(await historyOf(alice, task.id)).toEqual([])
  })
})

/** A webhook row as the webhooks service stores one, enabled, its cursor at `cursor`. */
async function insertWebhook(target: TestServer, cursor: number): Promise<void> {
  const now = Date.now()
  await target.testDatabase.use((db) =>
    db
      .insertInto('webhooks')
      .values({
        owner: 'alice',
        caller: '{}',
        url: 'http://127.0.0.1:9/',
        secret: 'whsec_x',
        lists: null,
        types: '[]',
        cursor,
        enabled: 1,
        status: 'active',
        version: 1,
        created_at: now,
        updated_at: now,
      })
      .execute(),
  )
}

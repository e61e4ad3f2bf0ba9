// Which answer wins when several apply (401, then 413/415, 400, Idempotency-Key, 404, 403,
// 412: one test per adjacent pair), and a hidden task's or list's 404 being exactly a
// missing one's.
import type { List, Task } from '@tasklane/contract'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN_TOKEN,
  addMember,
  as,
  type Caller,
  createList,
  createTaskIn,
  expectStatus,
  makeToken,
  principal,
} from './support/access.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer
let alice: Caller
/** A viewer of `list`, an editor of `edited`; `readOnly` is its read-only token. */
let bob: Caller
let readOnly: Caller
let nobody: Caller
/** Alice's: bob views `list`, edits `edited`, and does not see `hidden`. */
let list: List
let edited: List
let hidden: List
let task: Task
let hiddenTask: Task

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: ADMIN_TOKEN } })
  alice = await principal(server, 'alice')
  bob = await principal(server, 'bob')
  readOnly = as(server, (await makeToken(server, { principal: 'bob', role: 'read' })).token)
  nobody = as(server, undefined)
  list = await createList(alice, 'Viewed by bob')
  edited = await createList(alice, 'Edited by bob')
  hidden = await createList(alice, 'Hidden from bob')
  await addMember(alice, list.id, 'bob', 'viewer')
  await addMember(alice, edited.id, 'bob', 'editor')
  task = await createTaskIn(alice, list.id, 'viewed')
  hiddenTask = await createTaskIn(alice, hidden.id, 'hidden')
})

afterAll(async () => {
  await server?.close()
})

const status = (response: LightMyRequestResponse) => response.statusCode
const TEXT = { 'content-type': 'text/plain' }
const HUGE = JSON.stringify({ name: 'x'.repeat(70_000) })

describe('precedence', () => {
  it('answers 401 before 413 and 415', async () => {
    expect(status(await nobody.post('/task', 'name', TEXT))).toBe(401)
    expect(status(await nobody.post('/task', HUGE))).toBe(401)
    expect(status(await nobody.patch(`/lists/${list.id}`, 'name', TEXT))).toBe(401)
    expect(status(await nobody.put(`/lists/${list.id}/members/x`, HUGE))).toBe(401)
  })

  it('answers 413 and 415 before 400', async () => {
    expect(status(await alice.post('/task', '{"name": ""}', TEXT))).toBe(415)
    expect(status(await alice.patch('/tasks/0', '{}', TEXT))).toBe(415)
    expect(status(await alice.patch('/lists/0', '{}', TEXT))).toBe(415)
    expect(status(await alice.post('/task', `${HUGE.slice(0, -2)}`))).toBe(413)
    expect(status(await alice.post('/list', HUGE))).toBe(413)
  })

  it('answers 400 before the Idempotency-Key (a key used before, another body)', async () => {
    const key = { 'idempotency-key': 'before-400' }
    expectStatus(await alice.post('/task', { name: 'x', listId: list.id }, key), 201)
    expect(status(await alice.post('/task', { name: '' }, key))).toBe(400)
    expect(status(await alice.patch(`/tasks/${task.id}`, {}, key))).toBe(400)
    expect(status(await alice.post('/list', { name: ' ' }, key))).toBe(400)
    expect(status(await alice.patch(`/lists/${list.id}`, {}, key))).toBe(400)
  })

  it('answers the Idempotency-Key before 404', async () => {
    const key = { 'idempotency-key': 'before-404' }
    expectStatus(await alice.post('/task', { name: 'y', listId: list.id }, key), 201)
    expect(status(await alice.patch('/tasks/999999', { name: 'z' }, key))).toBe(422)
    expect(status(await alice.delete('/lists/999999', key))).toBe(422)
    expect(status(await alice.put('/lists/999999/members/x', { role: 'viewer' }, key))).toBe(422)
  })

  it('replays a create to its principal after it lost the list: the key before 404', async () => {
    const mine = await createList(alice, 'Bob leaves')
    await addMember(alice, mine.id, 'bob', 'editor')
    const key = { 'idempotency-key': 'then-removed' }
    const first = await bob.post('/task', { name: 'kept', listId: mine.id }, key)
    expectStatus(first, 201)
    expect(status(await alice.delete(`/lists/${mine.id}/members/bob`))).toBe(204)
    const again = await bob.post('/task', { name: 'kept', listId: mine.id }, key)
    expect({ status: status(again), body: again.json() }).toEqual({
      status: 201,
      body: first.json(),
    })
    expect(again.headers['idempotent-replayed']).toBe('true')
  })

  it('answers 404 before 403 (a read-only credential, a task or list it cannot see)', async () => {
    expect(status(await readOnly.patch(`/tasks/${hiddenTask.id}`, { name: 'n' }))).toBe(404)
    expect(status(await readOnly.delete('/tasks/999999'))).toBe(404)
    expect(status(await readOnly.post('/task', { name: 'n', listId: hidden.id }))).toBe(404)
    expect(status(await readOnly.patch(`/lists/${hidden.id}`, { name: 'n' }))).toBe(404)
    expect(status(await readOnly.put(`/lists/${hidden.id}/members/bob`, { role: 'owner' }))).toBe(
      404,
    )
    expect(status(await bob.delete(`/lists/${hidden.id}`))).toBe(404)
  })

  // The list it would move to is hidden (404) and the task's own list only viewed (403):
  // 404 comes first, so a viewer learns nothing of the hidden list.
  it('answers 404 before 403 for a move out of a list the caller views to one it cannot see', async () => {
    expect(status(await bob.patch(`/tasks/${task.id}`, { listId: hidden.id }))).toBe(404)
  })

  it('answers 403 before 412', async () => {
    const stale = { 'if-match': '"999"' }
    expect(status(await bob.patch(`/tasks/${task.id}`, { name: 'n' }, stale))).toBe(403)
    expect(status(await bob.delete(`/tasks/${task.id}`, stale))).toBe(403)
    expect(status(await readOnly.patch(`/tasks/${task.id}`, { name: 'n' }, stale))).toBe(403)
    expect(status(await bob.patch(`/lists/${list.id}`, { name: 'n' }, stale))).toBe(403)
    expect(status(await bob.delete(`/lists/${edited.id}`, stale))).toBe(403)
  })
})

/** What a response says, but its request id and date: the rest must be byte-identical. */
const seen = (response: LightMyRequestResponse) => {
  const { 'x-request-id': _id, date: _date, ...headers } = response.headers
  return { status: response.statusCode, headers, body: response.body }
}

describe('a task or list the caller cannot read', () => {
  it('answers 404 exactly as if it did not exist, on every route', async () => {
    const dave = await principal(server, 'dave')
    const gone = await createList(alice, 'Gone soon')
    const goneTask = await createTaskIn(alice, gone.id, 'gone soon')
    const requests = (listId: number, taskId: number) =>
      [
        () => dave.get(`/tasks/${taskId}`),
        () => dave.patch(`/tasks/${taskId}`, { name: 'n' }, { 'if-match': '"1"' }),
        () => dave.delete(`/tasks/${taskId}`),
        () => dave.get(`/tasks?list=${listId}`),
        () => dave.get(`/tasks/events?list=${listId}&after=0`),
        () => dave.post('/task', { name: 'n', listId }),
        () => dave.get(`/lists/${listId}`, { 'if-none-match': '"1"' }),
        () => dave.patch(`/lists/${listId}`, { name: 'n' }),
        () => dave.delete(`/lists/${listId}`),
        () => dave.get(`/lists/${listId}/members`),
        () => dave.put(`/lists/${listId}/members/dave`, { role: 'owner' }),
        () => dave.delete(`/lists/${listId}/members/alice`),
      ].map(async (send) => seen(await send()))
    const whileHidden = await Promise.all(requests(gone.id, goneTask.id))
    expect(whileHidden.map(({ status }) => status)).toEqual(whileHidden.map(() => 404))
    expect(status(await alice.delete(`/lists/${gone.id}`))).toBe(204)
    expect(await Promise.all(requests(gone.id, goneTask.id))).toEqual(whileHidden)
    // And as for ids never used, but for the ids in the message (and so its length).
    const never = await Promise.all(requests(999_001, 999_002))
    const renumbered = (answers: typeof never) =>
      JSON.stringify(answers.map((a) => ({ ...a, headers: { ...a.headers, 'content-length': 0 } })))
        .replaceAll(`List ${gone.id} `, 'List N ')
        .replaceAll(`Task ${goneTask.id} `, 'Task N ')
        .replaceAll('List 999001 ', 'List N ')
        .replaceAll('Task 999002 ', 'Task N ')
    expect(renumbered(never)).toBe(renumbered(whileHidden))
  })
})

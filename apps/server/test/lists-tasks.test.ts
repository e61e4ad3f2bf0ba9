// Tasks in lists: where a create goes, `list=` on GET /tasks, who created and changed a
// task, and moving a task from one list to another (PATCH listId).
import type { List, Task } from '@tasklane/contract'
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
  makeToken,
  principal,
} from './support/access.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer
let admin: Caller
let alice: Caller
let bob: Caller
/** Alice's lists: bob is a viewer of `viewed`, an editor of `edited`, not in `hidden`. */
let viewed: List
let edited: List
let hidden: List

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: ADMIN_TOKEN } })
  admin = as(server, ADMIN_TOKEN)
  alice = await principal(server, 'alice')
  bob = await principal(server, 'bob')
  viewed = await createList(alice, 'Viewed by bob')
  edited = await createList(alice, 'Edited by bob')
  hidden = await createList(alice, 'Hidden from bob')
  await addMember(alice, viewed.id, 'bob', 'viewer')
  await addMember(alice, edited.id, 'bob', 'editor')
})

afterAll(async () => {
  await server?.close()
})

const seq = (response: { headers: Record<string, unknown> }) =>
  Number(response.headers['tasklane-seq'])

describe('POST /task', () => {
  it('records the list and who created the task (createdBy and updatedBy)', async () => {
    const task = await createTaskIn(bob, edited.id, 'by bob')
    expect(task).toMatchObject({
      listId: edited.id,
      createdBy: 'bob',
      updatedBy: 'bob',
      version: 1,
    })
  })

  it('puts a task without listId in the lowest-id list the caller can edit', async () => {
    // Bob views a lower list than the one he edits: his task goes to the one he edits.
    expect(viewed.id).toBeLessThan(edited.id)
    const task = expectStatus<Task>(await bob.post('/task', { name: 'anywhere' }), 201)
    expect(task.listId).toBe(edited.id)
    expect(expectStatus<Task>(await alice.post('/task', { name: 'mine' }), 201).listId).toBe(
      viewed.id,
    )
  })

  it('puts it in the lowest-id list its token reaches, when the token is narrowed', async () => {
    const later = await createList(alice, 'Later, edited by bob')
    await addMember(alice, later.id, 'bob', 'editor')
    const token = await makeToken(server, { principal: 'bob', lists: [viewed.id, later.id] })
    const task = expectStatus<Task>(
      await as(server, token.token).post('/task', { name: 'narrowed' }),
      201,
    )
    expect(task.listId).toBe(later.id)
    const rootToken = await makeToken(server, {
      principal: 'root',
      role: 'admin',
      lists: [later.id],
    })
    const rootTask = expectStatus<Task>(
      await as(server, rootToken.token).post('/task', { name: 'r' }),
      201,
    )
    expect(rootTask).toMatchObject({ listId: later.id, createdBy: 'root' })
  })

  it("puts the admin's task without listId in list 1", async () => {
    const task = expectStatus<Task>(await admin.post('/task', { name: 'admin' }), 201)
    expect(task).toMatchObject({ listId: 1, createdBy: 'admin', updatedBy: 'admin' })
  })

  it('returns 403 naming listId when the caller can edit no list', async () => {
    const viewer = await principal(server, 'only-views')
    await addMember(alice, viewed.id, 'only-views', 'viewer')
    expectErrorBody(
      await viewer.post('/task', { name: 'nowhere' }),
      403,
      'There is no list you can add tasks to: name one in "listId", or create one with POST /list.',
    )
  })

  it('returns 404 for a list the caller cannot read, as for one that does not exist', async () => {
    expectErrorBody(
      await bob.post('/task', { name: 'x', listId: hidden.id }),
      404,
      `List ${hidden.id} does not exist.`,
    )
    expectErrorBody(
      await bob.post('/task', { name: 'x', listId: 99999 }),
      404,
      'List 99999 does not exist.',
    )
  })
})

describe('PATCH /tasks/{id}', () => {
  it('records who changed the task last in updatedBy, keeping createdBy', async () => {
    const task = await createTaskIn(alice, edited.id, 'by alice')
    const response = await bob.patch(`/tasks/${task.id}`, { status: 'done' })
    expect(expectStatus(response, 200)).toMatchObject({
      createdBy: 'alice',
      updatedBy: 'bob',
      version: 2,
    })
  })

  it('moves a task to another list the caller edits: one change, one seq, one version', async () => {
    const other = await createList(alice, 'Move target')
    const task = await createTaskIn(alice, edited.id, 'moving')
    const before = seq(await alice.get('/tasks'))
    const response = await alice.patch(`/tasks/${task.id}`, { listId: other.id })
    const moved = expectStatus<Task>(response, 200)
    expect(moved).toMatchObject({ id: task.id, listId: other.id, version: 2, updatedBy: 'alice' })
    expect(seq(response)).toBe(before + 1)
    expect((await alice.get(`/tasks?list=${other.id}`)).json()).toEqual([moved])
    expect((await alice.get(`/tasks?list=${edited.id}`)).json()).not.toContainEqual(
      expect.objectContaining({ id: task.id }),
    )
    // Bob edits the list it came from but does not read the one it went to.
    expectErrorBody(await bob.get(`/tasks/${task.id}`), 404, `Task ${task.id} does not exist.`)
  })

  it('lets an editor of both lists move a task', async () => {
    const second = await createList(alice, 'Second for bob')
    await addMember(alice, second.id, 'bob', 'editor')
    const task = await createTaskIn(bob, edited.id, 'bob moves it')
    expect(
      expectStatus(await bob.patch(`/tasks/${task.id}`, { listId: second.id }), 200),
    ).toMatchObject({
      listId: second.id,
      updatedBy: 'bob',
    })
  })

  it('returns 404 naming the target list when the caller cannot read it', async () => {
    const task = await createTaskIn(bob, edited.id, 'stays')
    const response = await bob.patch(`/tasks/${task.id}`, { listId: hidden.id })
    expectErrorBody(response, 404, `List ${hidden.id} does not exist.`)
    expect((await bob.get(`/tasks/${task.id}`)).json()).toMatchObject({
      listId: edited.id,
      version: 1,
    })
  })

  it('returns 403 when the caller only views the target list', async () => {
    const task = await createTaskIn(bob, edited.id, 'stays too')
    expectErrorBody(
      await bob.patch(`/tasks/${task.id}`, { listId: viewed.id }),
      403,
      `Changing tasks in list ${viewed.id} needs the editor role; you have the viewer role there.`,
    )
  })

  it('returns 403 when the caller only views the list the task is in', async () => {
    const task = await createTaskIn(alice, viewed.id, 'viewed only')
    expectErrorBody(
      await bob.patch(`/tasks/${task.id}`, { listId: edited.id }),
      403,
      `Changing tasks in list ${viewed.id} needs the editor role; you have the viewer role there.`,
    )
  })
})

describe('GET /tasks', () => {
  it('lists the tasks of every list the caller reads, and list= narrows them to one', async () => {
    const carol = await principal(server, 'carol')
    const first = await createList(carol, 'Carol 1')
    const second = await createList(carol, 'Carol 2')
    const one = await createTaskIn(carol, first.id, 'one')
    const two = await createTaskIn(carol, second.id, 'two')
    await createTaskIn(alice, hidden.id, 'not for carol')
    expect((await carol.get('/tasks')).json()).toEqual([one, two])
    expect((await carol.get(`/tasks?list=${second.id}`)).json()).toEqual([two])
    expect((await carol.get(`/tasks/${one.id}`)).json()).toEqual(one)
  })

  it('answers each caller its own tasks for the same query, as JSON and NDJSON, one after the other', async () => {
    const erin = await principal(server, 'erin')
    const frank = await principal(server, 'frank')
    const [e, f] = [await createList(erin, 'Erin'), await createList(frank, 'Frank')]
    const mine = await createTaskIn(erin, e.id, 'erin only')
    const theirs = await createTaskIn(frank, f.id, 'frank only')
    for (let i = 0; i < 3; i++) {
      for (const [caller, task] of [
        [erin, mine],
        [frank, theirs],
      ] as const) {
        expect((await caller.get('/tasks?limit=10&order=desc')).json()).toEqual([task])
        const ndjson = await caller.get('/tasks', { accept: 'application/x-ndjson' })
        expect(
          ndjson.body
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line)),
        ).toEqual([task])
      }
    }
  })

  it('returns 404 for list= naming a list the caller cannot read, exactly as for a missing one', async () => {
    const hiddenOne = await bob.get(`/tasks?list=${hidden.id}`)
    expectErrorBody(hiddenOne, 404, `List ${hidden.id} does not exist.`)
    expectErrorBody(await bob.get('/tasks?list=99999'), 404, 'List 99999 does not exist.')
  })

  it("returns [] for an empty list the caller reads, and the admin's list= reaches any list", async () => {
    const empty = await createList(alice, 'Empty')
    expect((await alice.get(`/tasks?list=${empty.id}`)).json()).toEqual([])
    const task = await createTaskIn(alice, hidden.id, 'admin sees it')
    expect((await admin.get(`/tasks?list=${hidden.id}`)).json()).toContainEqual(task)
    expectErrorBody(await admin.get('/tasks?list=99999'), 404, 'List 99999 does not exist.')
  })
})

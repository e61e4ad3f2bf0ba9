// POST /tasks/{id}/move: before or after a task, to the top or the bottom, optionally into
// another list; one change, conditional and idempotent like PATCH; 10,000 moves to one spot.
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTask, expectError, get, jsonBody, postJson, seqOf } from './support/http.js'
import { bytes, move, moved, newList } from './support/moves.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

/** The names of a list's tasks in its manual order, read by sorting on position. */
async function order(listId: number): Promise<string[]> {
  const tasks = await jsonBody<Task[]>(await get(server, `/tasks?list=${listId}`))
  return [...tasks].sort((a, b) => bytes(a.position, b.position)).map((task) => task.name)
}

describe('POST /tasks/{id}/move', () => {
  let listId: number
  let tasks: Task[]
  beforeAll(async () => {
    listId = await newList(server, 'Moves')
    tasks = []
    for (const name of ['a', 'b', 'c', 'd']) {
      const response = await postJson(server, { name, listId })
      tasks.push((await response.json()) as Task)
    }
  })
  const id = (name: string) => (tasks.find((task) => task.name === name) as Task).id

  it('places a task before or after another, at the top or at the bottom', async () => {
    expect(await order(listId)).toEqual(['a', 'b', 'c', 'd'])
    await moved(server, id('d'), { before: id('b') })
    expect(await order(listId)).toEqual(['a', 'd', 'b', 'c'])
    await moved(server, id('a'), { after: id('c') })
    expect(await order(listId)).toEqual(['d', 'b', 'c', 'a'])
    await moved(server, id('c'), { to: 'top' })
    expect(await order(listId)).toEqual(['c', 'd', 'b', 'a'])
    await moved(server, id('c'), { to: 'bottom' })
    expect(await order(listId)).toEqual(['d', 'b', 'a', 'c'])
  })

  it('is one change: one version more, a new seq, updatedAt, and a "moved" entry in the history', async () => {
    const before = await jsonBody<Task>(await get(server, `/tasks/${id('b')}`))
    const { task, response } = await moved(server, id('b'), { to: 'top' })
    expect(task).toEqual({
      ...before,
      position: expect.any(String),
      version: before.version + 1,
      updatedAt: expect.any(String),
    })
    expect(bytes(task.position, before.position)).toBeLessThan(0)
    expect(response.headers.get('etag')).toBe(`"${task.version}"`)
    const history = await jsonBody<{ seq: number; type: string }[]>(
      await get(server, `/tasks/${task.id}/history?limit=1`),
    )
    expect(history[0]).toMatchObject({ seq: seqOf(response), type: 'moved' })
  })

  it('moves a task into another list, at the place asked or last', async () => {
    const target = await newList(server, 'Target')
    const there = (await (await postJson(server, { name: 'there', listId: target })).json()) as Task
    const { task } = await moved(server, id('d'), { to: 'top', listId: target })
    expect(task.listId).toBe(target)
    expect(await order(target)).toEqual(['d', 'there'])
    const back = await moved(server, id('d'), { after: id('a'), listId })
    expect(back.task.listId).toBe(listId)
    expect(await order(target)).toEqual(['there'])
    expect((await order(listId)).indexOf('d')).toBe((await order(listId)).indexOf('a') + 1)
    expect(there.listId).toBe(target)
  })

  it.each([
    ['two places', { to: 'top', before: 1 }],
    ['before and after', { before: 1, after: 2 }],
    ['no place', {}],
    ['a listId alone', { listId: 1 }],
  ])('refuses %s with 400: exactly one of before, after and to', async (_, body) => {
    await expectError(
      await move(server, id('a'), body),
      400,
      'The move must name exactly one of "before", "after" and "to" (top or bottom).',
    )
  })

  it('refuses a reference to a task outside the (target) list with 400 naming it, moving nothing', async () => {
    const outside = await createTask(server, { name: 'outside' })
    const before = await order(listId)
    await expectError(
      await move(server, id('a'), { before: outside.id }),
      400,
      `Field "before" must name another task of the list the task is moved into; task ${outside.id} is not one.`,
    )
    await expectError(
      await move(server, id('a'), { after: id('a') }),
      400,
      `Field "after" must name another task of the list the task is moved into; task ${id('a')} is not one.`,
    )
    expect(await order(listId)).toEqual(before)
  })

  it('answers 404 for a task that does not exist', async () => {
    await expectError(
      await move(server, 999_999, { to: 'top' }),
      404,
      'Task 999999 does not exist.',
    )
  })

  it('honours If-Match (412 with the current ETag, nothing moved) and replays an Idempotency-Key', async () => {
    const current = await jsonBody<Task>(await get(server, `/tasks/${id('c')}`))
    const refused = await move(
      server,
      id('c'),
      { to: 'top' },
      { 'if-match': `"${current.version + 5}"` },
    )
    expect(refused.status).toBe(412)
    expect(refused.headers.get('etag')).toBe(`"${current.version}"`)
    expect(await jsonBody(await get(server, `/tasks/${id('c')}`))).toEqual(current)
    const headers = { 'if-match': `"${current.version}"`, 'idempotency-key': 'move-c-top' }
    const first = await moved(server, id('c'), { to: 'top' }, headers)
    const again = await moved(server, id('c'), { to: 'top' }, headers)
    expect(again.task).toEqual(first.task)
    expect(again.response.headers.get('idempotent-replayed')).toBe('true')
    const other = await move(server, id('c'), { to: 'bottom' }, { 'idempotency-key': 'move-c-top' })
    expect(other.status).toBe(422)
  })
})

import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aTask, createTask, get, jsonBody, listAll, postJson, postRaw } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

describe('POST /task', () => {
  it('returns 201 with the task, its id and a Location header', async () => {
    const response = await postJson(server, { name: 'Write docs', tag: 'docs' })
    expect(response.status).toBe(201)
    const task = await jsonBody<Task>(response)
    expect(task).toEqual(aTask({ name: 'Write docs', tag: 'docs' }))
    expect(Number.isSafeInteger(task.id)).toBe(true)
    expect(task.id).toBeGreaterThanOrEqual(1)
    expect(response.headers.get('location')).toBe(`/tasks/${task.id}`)
  })

  it('returns the id as a JSON number, never a string', async () => {
    const response = await postJson(server, { name: 'number id' })
    expect(await response.text()).toMatch(/"id":\d+[,}]/)
  })

  it('stores the task so that GET /tasks/{id} returns it', async () => {
    const created = await createTask(server, { name: 'persisted', tag: 'p' })
    const response = await get(server, `/tasks/${created.id}`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(created)
  })

  it('assigns strictly increasing ids', async () => {
    const ids: number[] = []
    for (let i = 0; i < 5; i++) ids.push((await createTask(server, { name: `seq ${i}` })).id)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(ids).size).toBe(5)
  })

  it('assigns distinct ids to concurrent creates, and lists them in ascending order', async () => {
    const tasks = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createTask(server, { name: `concurrent ${i}` })),
    )
    const ids = tasks.map((task) => task.id)
    expect(new Set(ids).size).toBe(20)
    const listed = (await listAll(server)).map((task) => task.id)
    expect(listed).toEqual([...listed].sort((a, b) => a - b))
    for (const id of ids) expect(listed).toContain(id)
  })

  it('gives each of many concurrent creates its own id: body, Location and GET /tasks/{id} agree', async () => {
    // Creates that arrive together share one commit; each must get back the id of its
    // own row, whatever order the database returns the batch's ids in.
    const sent = Array.from({ length: 200 }, (_, i) =>
      i % 3 === 0 ? { name: `batched ${i}` } : { name: `batched ${i}`, tag: `tag ${i % 7}` },
    )
    const responses = await Promise.all(sent.map((task) => postJson(server, task)))
    const answers = await Promise.all(
      responses.map(async (response) => ({
        status: response.status,
        location: response.headers.get('location'),
        task: (await response.json()) as Task,
      })),
    )
    for (const [i, { status, location, task }] of answers.entries()) {
      expect({ status, location, task }).toEqual({
        status: 201,
        location: `/tasks/${task.id}`,
        task: aTask(sent[i] as { name: string }),
      })
    }
    expect(new Set(answers.map(({ task }) => task.id)).size).toBe(sent.length)
    const stored = await Promise.all(
      answers.map(async ({ task }) => (await get(server, `/tasks/${task.id}`)).json()),
    )
    expect(stored).toEqual(answers.map(({ task }) => task))
  })

  it('omits the tag key when no tag is given (not null)', async () => {
    const response = await postJson(server, { name: 'untagged' })
    expect(response.status).toBe(201)
    const task = (await response.json()) as Task
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
    const read = await (await get(server, `/tasks/${task.id}`)).text()
    expect(read).toBe(
      `{"id":${task.id},"listId":1,"name":"untagged","status":"open","priority":0,"position":"${task.position}","version":1,"createdAt":"${task.createdAt}","createdBy":"local","updatedAt":"${task.createdAt}","updatedBy":"local"}`,
    )
  })

  it('accepts Content-Type: application/json; charset=utf-8', async () => {
    const response = await postRaw(
      server,
      JSON.stringify({ name: 'with charset' }),
      'application/json; charset=utf-8',
    )
    expect(response.status).toBe(201)
    expect(await response.json()).toMatchObject({ name: 'with charset' })
  })
})

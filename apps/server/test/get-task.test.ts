import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aTask, createTask, expectError, get, jsonBody } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer
let tagged: Task
let untagged: Task

beforeAll(async () => {
  server = await startServer()
  tagged = await createTask(server, { name: 'Read the spec', tag: 'docs' })
  untagged = await createTask(server, { name: 'No tag here' })
})

afterAll(async () => {
  await server?.close()
})

describe('GET /tasks/{id}', () => {
  it('returns 200 with the task', async () => {
    const response = await get(server, `/tasks/${tagged.id}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const task = await jsonBody(response)
    expect(task).toEqual(aTask({ id: tagged.id, name: 'Read the spec', tag: 'docs' }))
    expect(task).toEqual(tagged)
  })

  it('returns a task without a tag with no tag key', async () => {
    const response = await get(server, `/tasks/${untagged.id}`)
    expect(response.status).toBe(200)
    const { createdAt, updatedAt } = untagged
    expect(await response.text()).toBe(
      `{"id":${untagged.id},"listId":1,"name":"No tag here","status":"open","priority":0,"position":"${untagged.position}","version":1,"createdAt":"${createdAt}","createdBy":"local","updatedAt":"${updatedAt}","updatedBy":"local"}`,
    )
  })

  it('returns 404 for an id no task has', async () => {
    const id = untagged.id + 1000
    await expectError(await get(server, `/tasks/${id}`), 404, `Task ${id} does not exist.`)
  })

  it('returns 404 for the largest safe integer id', async () => {
    await expectError(
      await get(server, '/tasks/9007199254740991'),
      404,
      'Task 9007199254740991 does not exist.',
    )
  })

  it.each([
    ['0', 'Path parameter "id" must be at least 1.'],
    ['-1', 'Path parameter "id" must be at least 1.'],
    ['-9223372036854775808', 'Path parameter "id" must be at least 1.'],
    ['abc', 'Path parameter "id" must be an integer.'],
    ['1.5', 'Path parameter "id" must be an integer.'],
    ['1e3', 'Path parameter "id" must be an integer.'],
    ['0x1', 'Path parameter "id" must be an integer.'],
  ])('returns 400 for id %s', async (id, message) => {
    await expectError(await get(server, `/tasks/${id}`), 400, message)
  })

  it.each([
    ['2^53', '9007199254740992'],
    ['2^53+1', '9007199254740993'],
    ['2^63', '9223372036854775808'],
    ['100 digits', '9'.repeat(100)],
  ])('returns 400 for an id above 2^53-1, the largest any task has (%s)', async (_, id) => {
    await expectError(
      await get(server, `/tasks/${id}`),
      400,
      'Path parameter "id" must be at most 9007199254740991.',
    )
  })
})

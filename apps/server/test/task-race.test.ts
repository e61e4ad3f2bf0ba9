import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTask, deleteRaw, get, jsonBody, patchRaw } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

/** Sends `count` requests at once; resolves with their statuses. */
async function race(count: number, send: (i: number) => Promise<Response>): Promise<number[]> {
  const responses = await Promise.all(Array.from({ length: count }, (_, i) => send(i)))
  return Promise.all(
    responses.map(async (response) => {
      await response.body?.cancel()
      return response.status
    }),
  )
}

describe('concurrent changes with the same If-Match', () => {
  it('lets exactly one of 30 PATCHes win; the others get 412 and change nothing', async () => {
    for (let round = 0; round < 5; round++) {
      const task = await createTask(server, { name: 'contested' })
      const statuses = await race(30, (i) =>
        patchRaw(server, task.id, { name: `writer ${i}` }, { 'if-match': '"1"' }),
      )
      expect(statuses.filter((status) => status === 200)).toHaveLength(1)
      expect(statuses.filter((status) => status === 412)).toHaveLength(29)
      const now = await jsonBody<Task>(await get(server, `/tasks/${task.id}`))
      expect(now.version).toBe(2)
      expect(now.name).toMatch(/^writer \d+$/)
    }
  })

  it('lets exactly one of a PATCH and a DELETE sent together with the same If-Match win', async () => {
    for (let round = 0; round < 10; round++) {
      const task = await createTask(server, { name: 'patch or delete' })
      const statuses = await race(2, (i) =>
        i === 0
          ? patchRaw(server, task.id, { status: 'done' }, { 'if-match': '"1"' })
          : deleteRaw(server, task.id, { 'if-match': '"1"' }),
      )
      // The PATCH first: the DELETE's If-Match fails. The DELETE first: the task is gone,
      // which the PATCH hears before its precondition (404 comes before 412).
      expect([
        [200, 412],
        [404, 204],
      ]).toContainEqual(statuses)
    }
  })

  it('applies every one of 30 unconditional PATCHes, one version each', async () => {
    const task = await createTask(server, { name: 'counted' })
    const statuses = await race(30, (i) => patchRaw(server, task.id, { name: `n${i}` }))
    expect(statuses).toEqual(Array(30).fill(200))
    expect((await jsonBody<Task>(await get(server, `/tasks/${task.id}`))).version).toBe(31)
  })
})

import { createClient, type Task, type TasklaneClient } from '@tasklane/client'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tasklane } from './support/cli.js'
import { type FlakyProxy, startFlakyProxy } from './support/flaky-proxy.js'

let server: TasklaneServer
let client: TasklaneClient
let proxy: FlakyProxy
/** The first answer to each PATCH and DELETE is lost: the server made the change, the CLI never hears. */
const answered = new Set<string>()

beforeAll(async () => {
  server = await startServer()
  client = createClient({ baseUrl: server.url })
  proxy = await startFlakyProxy(server.url, ({ method, path }) => {
    if (method !== 'PATCH' && method !== 'DELETE') return false
    const first = !answered.has(`${method} ${path}`)
    answered.add(`${method} ${path}`)
    return first
  })
})
afterAll(async () => {
  await proxy?.close()
  await server?.close()
})

/** The Idempotency-Key of each attempt of `method` on `path` that reached the server. */
function keys(method: string, path: string): unknown[] {
  return proxy.requests
    .filter((request) => request.method === method && request.path === path)
    .map(({ headers }) => headers['idempotency-key'])
}

describe('a change whose answer is lost, retried by the client', () => {
  it('is replayed, not made twice: edit --if-match succeeds once, at the next version', async () => {
    const task = await client.createTask({ name: 'Retried' })
    const result = await tasklane(
      ['edit', String(task.id), '--name', 'Retried once', '--if-match', '1', '--json'],
      { TASKLANE_URL: proxy.url },
    )
    // Made twice, the second attempt would find version 2 and answer 412.
    expect(result).toMatchObject({ status: 0, stderr: '' })
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'Retried once', version: 2 })
    const [first, second] = keys('PATCH', `/tasks/${task.id}`)
    expect(first).toEqual(expect.any(String))
    expect(second).toBe(first)
    expect(await client.getTask(task.id)).toMatchObject({ version: 2 })
  })

  it('deletes each of several tasks once, each with a key of its own', async () => {
    const tasks: Task[] = []
    for (const name of ['Lost answer one', 'Lost answer two']) {
      tasks.push(await client.createTask({ name }))
    }
    const ids = tasks.map(({ id }) => String(id))
    const result = await tasklane(['rm', ...ids], { TASKLANE_URL: proxy.url })
    // Made twice, the second DELETE would answer 404.
    expect(result).toEqual({
      status: 0,
      stdout: ids.map((id) => `Deleted task ${id}.\n`).join(''),
      stderr: '',
    })
    const perTask = ids.map((id) => keys('DELETE', `/tasks/${id}`))
    for (const attempts of perTask) {
      expect(attempts).toHaveLength(2)
      expect(attempts[1]).toBe(attempts[0])
    }
    expect(perTask[0]?.[0]).not.toBe(perTask[1]?.[0])
  })
})

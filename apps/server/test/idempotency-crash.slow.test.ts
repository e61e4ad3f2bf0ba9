import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aTask, listAll, postJson } from './support/http.js'
import { killAll, startServerProcess, within } from './support/processes.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'

let testDatabase: TestDatabase
let env: { DATABASE_URL: string }

beforeAll(async () => {
  testDatabase = await createTestDatabase({ kind: 'sqlite' })
  env = { DATABASE_URL: testDatabase.url }
})

afterAll(async () => {
  await killAll()
  await testDatabase?.drop()
})

/** A create's answer: status, replay header and body. */
async function answerTo(response: Response) {
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed'),
    body: await response.text(),
  }
}

describe('Idempotency-Key after kill -9 mid-batch (a real process)', () => {
  it('retrying every request with its key creates no duplicate; each key maps to one task', async () => {
    const CLIENTS = 24
    const sent: { key: string; body: { name: string; tag?: string }; id?: number }[] = []
    let server = await startServerProcess(env)
    const client = async (c: number) => {
      for (let i = 0; ; i++) {
        const request = {
          key: `crash-${c}-${i}`,
          body: { name: `keyed ${c}/${i}`, ...(i % 2 === 0 && { tag: `t${c}` }) },
        } as (typeof sent)[number]
        sent.push(request)
        let answer: Awaited<ReturnType<typeof answerTo>>
        try {
          answer = await answerTo(await postJson(server, request.body, request.key))
        } catch {
          return // the process died under this request: no answer, no promise
        }
        expect(answer.status).toBe(201)
        request.id = (JSON.parse(answer.body) as Task).id
      }
    }
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)))
    await new Promise((resolve) => setTimeout(resolve, 400 + Math.random() * 400))
    await server.kill()
    await within(load, 10_000, 'the clients noticing the crash')
    const unanswered = sent.filter((request) => request.id === undefined)
    expect(unanswered.length, 'no request was in flight at the kill').toBeGreaterThan(0)
    expect(sent.length - unanswered.length).toBeGreaterThan(0)

    server = await startServerProcess(env)
    const committedUnanswered = (await listAll(server)).length - (sent.length - unanswered.length)
    for (const request of sent) {
      const answer = await answerTo(await postJson(server, request.body, request.key))
      const task = JSON.parse(answer.body) as Task
      expect(answer.status).toBe(201)
      expect(task).toEqual(aTask({ id: task.id, ...request.body }))
      // Acknowledged before the crash: the very same task, replayed.
      if (request.id !== undefined) expect([task.id, answer.replayed]).toEqual([request.id, 'true'])
      request.id = task.id
    }
    const tasks = await listAll(server)
    expect(tasks).toHaveLength(sent.length)
    expect(new Set(tasks.map((task) => task.name)).size).toBe(sent.length)
    expect(new Set(sent.map((request) => request.id)).size).toBe(sent.length)
    const byId = new Map(tasks.map((task) => [task.id, task]))
    for (const request of sent)
      expect(byId.get(request.id as number)).toEqual(aTask({ id: request.id, ...request.body }))
    console.log(
      `keyed crash: ${sent.length} requests, ${unanswered.length} unanswered at the kill, ` +
        `${committedUnanswered} of those committed and replayed on retry`,
    )
    // A second retry of everything changes nothing.
    for (const request of sent.slice(0, 50)) {
      const answer = await answerTo(await postJson(server, request.body, request.key))
      expect([JSON.parse(answer.body).id, answer.replayed]).toEqual([request.id, 'true'])
    }
    expect(await listAll(server)).toHaveLength(sent.length)
  }, 60_000)
})

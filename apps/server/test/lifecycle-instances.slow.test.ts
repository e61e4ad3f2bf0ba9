import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { subscribe } from './support/events.js'
import { createTask, deleteRaw, get, jsonBody, patchRaw, patchTask, seqOf } from './support/http.js'
import { killAll, type ServerProcess, startServerProcess } from './support/processes.js'
import { Replica } from './support/replica.js'
import { createTestDatabase, onPostgres, type TestDatabase } from './support/test-database.js'

// Several server processes on one PostgreSQL database, as behind a load balancer.
describe.runIf(onPostgres)('the task lifecycle across three instances', () => {
  let testDatabase: TestDatabase
  let instances: ServerProcess[]

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    await testDatabase.migrate()
    instances = await Promise.all(
      [1, 2, 3].map(() => startServerProcess({ DATABASE_URL: testDatabase.url })),
    )
  }, 60_000)

  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.stop()))
    await killAll()
    await testDatabase?.drop()
  })

  const at = (i: number) => instances[i % 3] as ServerProcess

  it('lets exactly one of 30 PATCHes with the same If-Match win, sent to three instances at once', async () => {
    for (let round = 0; round < 3; round++) {
      const task = await createTask(at(0), { name: 'contested' })
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          patchRaw(at(i), task.id, { name: `writer ${i}` }, { 'if-match': '"1"' }),
        ),
      )
      const statuses = responses.map((response) => response.status)
      await Promise.all(responses.map((response) => response.body?.cancel()))
      expect(statuses.filter((status) => status === 200)).toHaveLength(1)
      expect(statuses.filter((status) => status === 412)).toHaveLength(29)
      expect((await jsonBody<Task>(await get(at(2), `/tasks/${task.id}`))).version).toBe(2)
    }
  })

  it('shows a change answered by one instance on every other at once: the task, every listing, the feed', async () => {
    const tag = `ryw-${Date.now()}`
    const task = await createTask(at(0), { name: 'before', tag })
    // Fill each instance's caches with the state before the changes.
    for (const instance of instances) {
      await get(instance, `/tasks?tag=${tag}&limit=10`)
      await get(instance, `/tasks/${task.id}`)
    }
    for (let i = 0; i < 20; i++) {
      const changed = await patchRaw(at(i), task.id, { name: `after ${i}` })
      expect(changed.status).toBe(200)
      const seq = seqOf(changed)
      for (const reader of [at(i + 1), at(i + 2)]) {
        const one = await get(reader, `/tasks/${task.id}`)
        expect((await one.json()) as Task).toMatchObject({ name: `after ${i}`, version: i + 2 })
        expect(seqOf(one)).toBeGreaterThanOrEqual(seq)
        const page = await get(reader, `/tasks?tag=${tag}&limit=10`)
        expect(((await page.json()) as Task[]).map((t) => t.name)).toEqual([`after ${i}`])
        expect(seqOf(page)).toBeGreaterThanOrEqual(seq)
      }
    }
    const deleted = await deleteRaw(at(1), task.id)
    expect(deleted.status).toBe(204)
    for (const reader of [at(0), at(2)]) {
      expect((await get(reader, `/tasks/${task.id}`)).status).toBe(404)
      expect(await (await get(reader, `/tasks?tag=${tag}&limit=10`)).json()).toEqual([])
      const feed = await subscribe(reader, `/tasks/events?after=${seqOf(deleted) - 1}`)
      try {
        expect(await feed.untilEvents(1)).toEqual([
          { type: 'deleted', seq: seqOf(deleted), task: { id: task.id, version: 21 } },
        ])
      } finally {
        feed.close()
      }
    }
  })

  it("builds a replica from one instance's listing and another's feed equal to a fresh listing, whatever the three change", async () => {
    const listed = await get(at(0), '/tasks')
    const replica = new Replica((await listed.json()) as Task[], seqOf(listed))
    const feed = await subscribe(at(1), `/tasks/events?after=${replica.seq}`)
    try {
      const ids = [...replica.tasks.keys()]
      await Promise.all(
        [0, 1, 2].map(async (writer) => {
          for (let i = 0; i < 25; i++) {
            const instance = at(writer + i)
            const pick = ids[(writer * 7 + i * 13) % Math.max(1, ids.length)]
            if (i % 4 === 0 || pick === undefined) {
              ids.push((await createTask(instance, { name: `w${writer}-${i}` })).id)
            } else if (i % 4 === 1) {
              const response = await deleteRaw(instance, pick)
              expect([204, 404]).toContain(response.status)
            } else {
              const response = await patchRaw(instance, pick, {
                name: `w${writer}-${i}`,
                status: i % 2 ? 'done' : 'open',
              })
              await response.body?.cancel()
              expect([200, 404]).toContain(response.status)
            }
          }
        }),
      )
      const last = await patchTask(at(2), (await createTask(at(2), { name: 'last' })).id, {
        name: 'last!',
      })
      const newest = seqOf(await get(at(2), '/tasks?limit=0'))
      await feed.untilEvents(1)
      for (let waited = 0; feed.events.at(-1)?.seq !== newest; waited += 10) {
        if (waited > 10_000) throw new Error('the feed did not reach the newest change')
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      for (const event of feed.events) replica.apply(event)
      expect(replica.tasks.get(last.id)).toEqual(last)
      const fresh = await get(at(0), '/tasks')
      expect(seqOf(fresh)).toBe(newest)
      expect(replica.list()).toEqual(await fresh.json())
    } finally {
      feed.close()
    }
  })
})

// 10,000 moves of tasks to one spot of a manual order (right after one task), eight writers
// at a time: every move succeeds and every position stays valid, distinct and ordered.
// Fractional keys grow by a character every few moves to the same spot; none is renumbered.
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get, jsonBody, postJson } from './support/http.js'
import { bytes, move, moved, newList } from './support/moves.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

describe('10,000 moves to one spot', () => {
  it('all succeed and keep every position valid, distinct and in the order asked', async () => {
    const listId = await newList(server, 'One spot')
    const anchor = (await (await postJson(server, { name: 'anchor', listId })).json()) as Task
    const movers: Task[] = []
    for (let i = 0; i < 8; i++) {
      movers.push((await (await postJson(server, { name: `m${i}`, listId })).json()) as Task)
    }
    const MOVES = 10_000
    const statuses = new Map<number, number>()
    let next = 0
    /** The bodies of any move not answered 200, to say why in the failure. */
    const refusals: string[] = []
    // Eight writers at a time, each moving its own task right after the anchor.
    await Promise.all(
      movers.map(async (task) => {
        while (next < MOVES) {
          next++
          const response = await move(server, task.id, { after: anchor.id })
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
          const body = await response.text()
          if (response.status !== 200) refusals.push(body)
        }
      }),
    )
    expect(Object.fromEntries(statuses), refusals.slice(0, 3).join('\n')).toEqual({ 200: MOVES })
    const tasks = await jsonBody<Task[]>(await get(server, `/tasks?list=${listId}`))
    const positions = tasks.map((task) => task.position)
    expect(new Set(positions).size).toBe(tasks.length)
    // The contract's positions: 1–2,400 of 0-9A-Za-z.
    for (const position of positions) expect(position).toMatch(/^[0-9A-Za-z]{1,2400}$/)
    const sorted = [...tasks].sort((a, b) => bytes(a.position, b.position))
    expect(sorted[0]?.id).toBe(anchor.id)
    // One more move after the anchor still lands right after it.
    const last = movers[0] as Task
    await moved(server, last.id, { after: anchor.id })
    const after = [...(await jsonBody<Task[]>(await get(server, `/tasks?list=${listId}`)))].sort(
      (a, b) => bytes(a.position, b.position),
    )
    expect(after.map((task) => task.id).slice(0, 2)).toEqual([anchor.id, last.id])
  }, 600_000)
})

import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_CALLER } from '../src/domain/rights.js'
import type { ListFilter, Snapshot, Storage } from '../src/storage/open-storage.js'
import { get, seqOf } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

const TASKS = 2_500

/** Ids of every page, following the Link headers from `path`. */
async function follow(
  server: TestServer,
  path: string,
): Promise<{ ids: number[]; seqs: number[] }> {
  const ids: number[] = []
  const seqs: number[] = []
  let next: string | undefined = path
  while (next !== undefined) {
    const response = await get(server, next)
    expect(response.status).toBe(200)
    seqs.push(seqOf(response))
    ids.push(...((await response.json()) as Task[]).map((task) => task.id))
    next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1]
  }
  return { ids, seqs }
}

describe('a large page (limit > 1000) read while tasks are created', () => {
  let server: TestServer
  /** Creates a task through storage as soon as a listing's snapshot is open, once armed. */
  let armed = false
  /** Every `readIds` call of a snapshot: how many ids it asked for. */
  const idReads: number[] = []

  beforeAll(async () => {
    server = await startServer({
      wrapStorage: (storage: Storage): Storage => ({
        ...storage,
        async openSnapshot(): Promise<Snapshot> {
          const snapshot = await storage.openSnapshot()
          if (armed) {
            armed = false
            await storage.write(
              [{ caller: LOCAL_CALLER, kind: 'create', name: 'between', fingerprint: '' }],
              Date.now(),
              0,
            )
          }
          return {
            ...snapshot,
            readIds(filter: ListFilter, limit: number) {
              idReads.push(limit)
              return snapshot.readIds(filter, limit)
            },
          }
        },
      }),
    })
    await server.testDatabase.insertMany(TASKS)
  })

  afterAll(async () => {
    await server?.close()
  })

  it('answers the body and the Link from one snapshot: paging newest first misses no task committed meanwhile', async () => {
    armed = true
    const { ids, seqs } = await follow(server, '/tasks?order=desc&limit=1500')
    // The task created after the first page's snapshot is newer than all it lists: it is
    // on no page of this walk, and every task that the snapshot held is on exactly one.
    expect(ids).toEqual(Array.from({ length: TASKS }, (_, i) => TASKS - i))
    expect(seqs[0]).toBe(TASKS)
    expect(seqOf(await get(server, '/tasks?limit=0'))).toBe(TASKS + 1)
  })

  it('finds where a huge page ends without walking the index', async () => {
    idReads.length = 0
    const response = await get(server, '/tasks?limit=2147483647')
    expect(((await response.json()) as Task[]).length).toBe(TASKS + 1)
    expect(response.headers.get('link')).toBeNull()
    // The first and the last id: the page holds them all.
    expect(idReads).toEqual([1, 1])
  })

  it('walks to the end of a page a bounded chunk at a time, never in one long read', async () => {
    idReads.length = 0
    const response = await get(server, '/tasks?limit=2400&after=50')
    const tasks = (await response.json()) as Task[]
    expect(tasks.map((task) => task.id)).toEqual(Array.from({ length: 2400 }, (_, i) => 51 + i))
    expect(response.headers.get('link')).toBe('</tasks?limit=2400&after=2450>; rel="next"')
    expect(Math.max(...idReads)).toBeLessThanOrEqual(1000)
  })
})

describe('full listings of a few tasks', () => {
  let server: TestServer
  let snapshots = 0

  beforeAll(async () => {
    server = await startServer({
      wrapStorage: (storage: Storage): Storage => ({
        ...storage,
        openSnapshot() {
          snapshots++
          return storage.openSnapshot()
        },
      }),
    })
    for (const name of ['one', 'two', 'three']) {
      await fetch(`${server.url}/task`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      })
    }
  })
  afterAll(() => server?.close())

  it('are read in one query, without a snapshot: more at once than the storage holds snapshots all get 200', async () => {
    // Far more than the test storage holds snapshots on PostgreSQL (its pool of 4).
    const many = 50
    const responses = await Promise.all(Array.from({ length: many }, () => get(server, '/tasks')))
    expect(responses.map((response) => response.status)).toEqual(Array(many).fill(200))
    for (const response of responses) {
      expect(((await response.json()) as Task[]).map((task) => task.name)).toEqual([
        'one',
        'two',
        'three',
      ])
    }
    expect(snapshots).toBe(0)
  })
})

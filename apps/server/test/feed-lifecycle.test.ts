import type { Task } from '@tasklane/contract'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Storage } from '../src/storage/open-storage.js'
import { type FeedEvent, subscribe } from './support/events.js'
import { createTask, deleteTask, get, patchRaw, patchTask, seqOf } from './support/http.js'
import { Replica } from './support/replica.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

/** The newest seq now on `target` (the file's server by default), read off an empty page. */
async function newestSeq(target: TestServer = server): Promise<number> {
  return seqOf(await get(target, '/tasks?limit=0'))
}

/** Events as `[type, id]` pairs, for comparing which changes came. */
const kinds = (events: readonly FeedEvent[]) => events.map((event) => [event.type, event.task.id])

describe('GET /tasks/events carries every change', () => {
  it('sends created, updated and deleted events, each with its seq as id; a deleted one carries id and version only', async () => {
    const start = await newestSeq()
    const feed = await subscribe(server, `/tasks/events?after=${start}`)
    try {
      // Live, not in the backlog (which would compact the three into one deleted): wait
      // until the feed says it has caught up, and take each event before the next change.
      // A change superseded before the feed has read it is compacted too (docs/api.md,
      // "Superseded live changes"): on PostgreSQL, where the feed reads after a NOTIFY, the
      // three made back to back came compacted, fewer than three events, on Node 24.
      await feed.untilComments(2)
      const task = await createTask(server, { name: 'Lifecycle' })
      await feed.untilEvents(1)
      const done = await patchTask(server, task.id, { status: 'done' })
      await feed.untilEvents(2)
      await deleteTask(server, task.id)
      const events = await feed.untilEvents(3)
      expect(events).toEqual([
        { type: 'created', seq: start + 1, task },
        { type: 'updated', seq: start + 2, task: done },
        { type: 'deleted', seq: start + 3, task: { id: task.id, version: 2 } },
      ])
    } finally {
      feed.close()
    }
  })

  it('sends nothing for a patch that changes nothing', async () => {
    const task = await createTask(server, { name: 'Still' })
    const start = await newestSeq()
    const feed = await subscribe(server, `/tasks/events?after=${start}`)
    try {
      await patchTask(server, task.id, { name: 'Still' })
      const marker = await createTask(server, { name: 'Marker' })
      expect(kinds(await feed.untilEvents(1))).toEqual([['created', marker.id]])
    } finally {
      feed.close()
    }
  })

  it('compacts the backlog: each task once, at its latest change, deleted ones as tombstones, in seq order', async () => {
    const start = await newestSeq()
    const a = await createTask(server, { name: 'a' })
    const b = await createTask(server, { name: 'b' })
    const c = await createTask(server, { name: 'c' })
    await patchTask(server, a.id, { name: 'a2' })
    const a3 = await patchTask(server, a.id, { status: 'done' })
    await deleteTask(server, b.id)
    const feed = await subscribe(server, `/tasks/events?after=${start}`)
    try {
      const events = await feed.untilEvents(3)
      expect(events).toEqual([
        { type: 'created', seq: start + 3, task: c },
        { type: 'updated', seq: start + 5, task: a3 },
        { type: 'deleted', seq: start + 6, task: { id: b.id, version: 1 } },
      ])
      // And nothing else: the next change is the next event.
      const d = await createTask(server, { name: 'd' })
      expect(kinds((await feed.untilEvents(4)).slice(3))).toEqual([['created', d.id]])
      expect(feed.events).toHaveLength(4)
    } finally {
      feed.close()
    }
  })

  it('resumes after Last-Event-ID with every later change once', async () => {
    const task = await createTask(server, { name: 'Resume' })
    const start = await newestSeq()
    const first = await subscribe(server, `/tasks/events?after=${start}`)
    await patchTask(server, task.id, { name: 'one' })
    const [seen] = await first.untilEvents(1)
    first.close()
    await patchTask(server, task.id, { name: 'two' })
    const other = await createTask(server, { name: 'other' })
    const again = await subscribe(server, '/tasks/events', { 'last-event-id': String(seen?.seq) })
    try {
      const events = await again.untilEvents(2)
      expect(events.map((event) => [event.type, event.task.id, (event.task as Task).name])).toEqual(
        [
          ['updated', task.id, 'two'],
          ['created', other.id, 'other'],
        ],
      )
    } finally {
      again.close()
    }
  })
})

describe('GET /tasks/events with a tag or status keeps the view exact', () => {
  it('live: a task entering the view is created, one leaving it deleted, one never in it not sent', async () => {
    const tag = `view-${Date.now()}`
    const start = await newestSeq()
    const feed = await subscribe(server, `/tasks/events?after=${start}&tag=${tag}`)
    try {
      // A subscriber that keeps up: caught up before the first change, and each change read
      // by the feed before the next one is made (a change superseded before the feed reads
      // it is compacted into the later one, docs/api.md "Superseded live changes"; then
      // the view cannot tell that the task is new to it). Changes outside the view send no
      // event: the feed's `: seq` says when it has read them.
      await feed.untilComments(2)
      const task = await createTask(server, { name: 'outside', tag: 'elsewhere' })
      await feed.untilSeq(await newestSeq())
      await patchTask(server, task.id, { name: 'still outside' })
      await feed.untilSeq(await newestSeq())
      const entered = await patchTask(server, task.id, { tag })
      await feed.untilEvents(1)
      const renamed = await patchTask(server, task.id, { name: 'inside' })
      await feed.untilEvents(2)
      const left = await patchTask(server, task.id, { tag: null })
      await feed.untilEvents(3)
      await patchTask(server, task.id, { name: 'outside again' })
      await feed.untilSeq(await newestSeq())
      const back = await patchTask(server, task.id, { tag })
      await feed.untilEvents(4)
      await deleteTask(server, task.id)
      const events = await feed.untilEvents(5)
      expect(events.map((event) => [event.type, event.task])).toEqual([
        ['created', entered],
        ['updated', renamed],
        ['deleted', { id: task.id, version: left.version }],
        ['created', back],
        ['deleted', { id: task.id, version: back.version }],
      ])
    } finally {
      feed.close()
    }
  })

  it('live: a status view sees a task done (deleted from the open view) and reopened (created again)', async () => {
    const start = await newestSeq()
    const open = await subscribe(server, `/tasks/events?after=${start}&status=open`)
    const done = await subscribe(server, `/tasks/events?after=${start}&status=done`)
    try {
      // Both caught up first, and each change seen before the next (see the test above).
      await Promise.all([open.untilComments(2), done.untilComments(2)])
      const task = await createTask(server, { name: 'Tick' })
      // The done view gets no event for it: its `: seq` says it has read it.
      await Promise.all([open.untilEvents(1), done.untilSeq(await newestSeq())])
      const ticked = await patchTask(server, task.id, { status: 'done' })
      await Promise.all([open.untilEvents(2), done.untilEvents(1)])
      const reopened = await patchTask(server, task.id, { status: 'open' })
      expect((await open.untilEvents(3)).map((event) => event.type)).toEqual([
        'created',
        'deleted',
        'created',
      ])
      expect((await done.untilEvents(2)).map((event) => [event.type, event.task])).toEqual([
        ['created', ticked],
        ['deleted', { id: task.id, version: reopened.version }],
      ])
    } finally {
      open.close()
      done.close()
    }
  })

  it('backlog: a changed task that matches comes in its latest state; one that does not, as deleted if it existed at after', async () => {
    const tag = `backlog-${Date.now()}`
    const heldBefore = await createTask(server, { name: 'held before', tag })
    const start = await newestSeq()
    const stays = await createTask(server, { name: 'stays', tag })
    const leaves = await createTask(server, { name: 'leaves', tag })
    await patchTask(server, leaves.id, { tag: 'other' })
    const leftBefore = await patchTask(server, heldBefore.id, { tag: 'other' })
    const feed = await subscribe(server, `/tasks/events?after=${start}&tag=${tag}`)
    try {
      const events = await feed.untilEvents(2)
      // `leaves` was made after `start`: the subscriber cannot hold it, so no delete for it.
      expect(events.map((event) => [event.type, event.task])).toEqual([
        ['created', stays],
        ['deleted', { id: heldBefore.id, version: leftBefore.version }],
      ])
      await feed.untilSeq(await newestSeq())
      expect(feed.events).toHaveLength(2)
    } finally {
      feed.close()
    }
  })

  it('backlog of several reads: a view that matches nothing sends nothing, though its tasks changed after they were made', async () => {
    const tag = `never-${Date.now()}`
    const start = await newestSeq()
    const made: Task[] = []
    for (let i = 0; i < 150; i++) made.push(await createTask(server, { name: `made ${i}` }))
    // Renamed later: each task's latest change now lies beyond the first read of 100, while
    // it was made within it. None ever had the tag, so none was ever the view's.
    for (const task of made.slice(0, 120)) await patchTask(server, task.id, { name: 'renamed' })
    const feed = await subscribe(server, `/tasks/events?after=${start}&tag=${tag}`)
    try {
      await feed.untilSeq(await newestSeq())
      expect(feed.events).toEqual([])
    } finally {
      feed.close()
    }
  })

  it('live: a task that left the view in a change superseded before the feed read it comes as deleted, even with another change between', async () => {
    // The feed's reads wait at a gate: three changes commit before one read sees them all.
    let gate: Promise<void> | undefined
    const gated = await startServer({
      wrapStorage: (storage: Storage): Storage => ({
        ...storage,
        changesAfter: async (after, limit) => {
          await gate
          return storage.changesAfter(after, limit)
        },
      }),
    })
    const start = await newestSeq(gated)
    const held = await createTask(gated, { name: 'held', tag: 'red' })
    const feed = await subscribe(gated, `/tasks/events?after=${start}&tag=red`)
    try {
      await feed.untilSeq(start + 1)
      let open = () => {}
      gate = new Promise((resolve) => (open = resolve))
      // It leaves the view (never sent: superseded), another task changes, it changes again.
      await patchTask(gated, held.id, { tag: 'blue' })
      await createTask(gated, { name: 'between', tag: 'blue' })
      const renamed = await patchTask(gated, held.id, { name: 'renamed' })
      open()
      await feed.untilSeq(start + 4)
      expect(feed.events).toEqual([
        { type: 'created', seq: start + 1, task: held },
        { type: 'deleted', seq: start + 4, task: { id: held.id, version: renamed.version } },
      ])
    } finally {
      feed.close()
      await gated.close()
    }
  })

  it('answers 400 for an unknown status', async () => {
    const response = await get(server, '/tasks/events?status=closed')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      code: 400,
      message: 'Query parameter "status" must be "open" or "done".',
    })
  })
})

/** One random change another client makes. */
type Step =
  | { kind: 'create'; tag: string | undefined; status: 'open' | 'done' }
  | {
      kind: 'patch'
      pick: number
      patch: { name?: string; tag?: string | null; status?: 'open' | 'done' }
    }
  | { kind: 'delete'; pick: number }

const tags = fc.constantFrom('red', 'blue', undefined)
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    tag: tags,
    status: fc.constantFrom('open' as const, 'done' as const),
  }),
  fc.record({
    kind: fc.constant('patch' as const),
    pick: fc.nat(),
    patch: fc.record(
      {
        name: fc
          .string({ minLength: 1, maxLength: 8 })
          .filter((name) => /\S/.test(name) && !name.includes('\u0000')),
        tag: fc.constantFrom('red', 'blue', null),
        status: fc.constantFrom('open' as const, 'done' as const),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
)

describe('a replica built from a listing and the feed', () => {
  it('equals a fresh listing after random concurrent changes, for every view', async () => {
    const views = ['', '?tag=red', '?status=done', '?tag=blue&status=open']
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(step, { maxLength: 12 }), { minLength: 3, maxLength: 3 }),
        async (writers) => {
          // Each view: a listing, then the feed from its Tasklane-Seq.
          const replicas = await Promise.all(
            views.map(async (query) => {
              const listed = await get(server, `/tasks${query}`)
              const seq = seqOf(listed)
              const replica = new Replica((await listed.json()) as Task[], seq)
              const joiner = query === '' ? '?' : '&'
              const feed = await subscribe(server, `/tasks/events${query}${joiner}after=${seq}`)
              return { query, replica, feed }
            }),
          )
          try {
            const ids = ((await (await get(server, '/tasks')).json()) as Task[]).map((t) => t.id)
            // Three clients change tasks at once.
            await Promise.all(
              writers.map(async (steps) => {
                for (const s of steps) {
                  if (s.kind === 'create' || ids.length === 0) {
                    const task = await createTask(server, {
                      name: 'r',
                      ...(s.kind === 'create' && s.tag !== undefined ? { tag: s.tag } : {}),
                      ...(s.kind === 'create' ? { status: s.status } : {}),
                    })
                    ids.push(task.id)
                  } else {
                    const id = ids[s.pick % ids.length] as number
                    const response =
                      s.kind === 'delete'
                        ? await fetch(`${server.url}/tasks/${id}`, { method: 'DELETE' })
                        : Object.keys(s.patch).length === 0
                          ? undefined
                          : await patchRaw(server, id, s.patch)
                    // Another client may have deleted it first.
                    if (response) expect([200, 204, 404]).toContain(response.status)
                  }
                }
              }),
            )
            // Two last tasks that every view sees one of: once a view's arrives, every change
            // before it has (events come in seq order).
            const red = await createTask(server, { name: 'last', tag: 'red', status: 'done' })
            const blue = await createTask(server, { name: 'last', tag: 'blue', status: 'open' })
            const newest = await newestSeq()
            for (const { query, replica, feed } of replicas) {
              const last = query === '' || query.includes('blue') ? blue : red
              await until(() => feed.events.some((event) => event.task.id === last.id))
              for (const event of feed.events) replica.apply(event)
              const fresh = await get(server, `/tasks${query}`)
              expect(seqOf(fresh)).toBe(newest)
              expect({ query, tasks: replica.list() }).toEqual({ query, tasks: await fresh.json() })
            }
          } finally {
            for (const { feed } of replicas) feed.close()
          }
        },
      ),
      // A failure is reported as it is found: shrinking would rerun minutes of HTTP.
      { numRuns: 8, endOnFailure: true },
    )
  }, 120_000)
})

/** Resolves once `done()` holds, checking every 10 ms for at most 10 s. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error('the feed did not catch up within 10 s')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

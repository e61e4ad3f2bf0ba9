import { randomBytes } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { startServer } from '@tasklane/testing/server'
import fc from 'fast-check'
import { afterAll, beforeAll, expect } from 'vitest'
import { createClient, type Task, type TaskStatus } from '../src/index.js'
import { LiveTasks, type LiveTasksOptions } from '../src/live.js'
import { tcpProxy } from './proxies.js'

// The live copy's promise, against real servers: during random concurrent changes by other
// clients, with its connections cut at random points and a server restarted, no listener
// ever sees a duplicate, a deleted task, a task outside the view or its order, or a version
// going back; once caught up after the changes, it equals a fresh listing.

export type Server = Awaited<ReturnType<typeof startServer>>

/** One change another client makes; `pick` chooses among the tasks it knows. */
type Step =
  | { kind: 'create'; tag: string | undefined; status: TaskStatus }
  | {
      kind: 'patch'
      pick: number
      patch: { name?: string; tag?: string | null; status?: TaskStatus }
    }
  | { kind: 'delete'; pick: number }

const statuses = fc.constantFrom<TaskStatus>('open', 'done')
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    tag: fc.constantFrom('red', 'blue', undefined),
    status: statuses,
  }),
  fc.record({
    kind: fc.constant('patch' as const),
    pick: fc.nat(),
    patch: fc.record(
      {
        name: fc.constantFrom('renamed', 'again'),
        tag: fc.constantFrom('red', 'blue', null),
        status: statuses,
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
)
const view: fc.Arbitrary<LiveTasksOptions> = fc.record(
  {
    tag: fc.constantFrom('red', 'blue'),
    status: statuses,
    order: fc.constantFrom('asc' as const, 'desc' as const),
    limit: fc.integer({ min: 1, max: 4 }),
  },
  { requiredKeys: [] },
)
export const scenario = fc.record({
  views: fc.array(view, { minLength: 2, maxLength: 3 }),
  writers: fc.array(fc.array(step, { maxLength: 10 }), { minLength: 3, maxLength: 3 }),
  // Milliseconds before each cut of every connection of the live copies.
  cuts: fc.array(fc.integer({ min: 0, max: 150 }), { maxLength: 3 }),
})

/** One run: the views followed, each writer's changes, and when the connections are cut. */
export type Scenario = { views: LiveTasksOptions[]; writers: Step[][]; cuts: number[] }

/** Where the live copies read (through a proxy that cuts connections) and the others write. */
export interface Setup {
  readUrl: string
  writeUrls: string[]
  /** Stops the server the live copies read from and starts it again on the same database and port. */
  restart(): Promise<void>
}

const matches = (v: LiveTasksOptions, task: { tag?: string; status?: TaskStatus }) =>
  (v.tag === undefined || task.tag === v.tag) &&
  (v.status === undefined || task.status === v.status)

const query = (v: LiveTasksOptions) =>
  new URLSearchParams(
    Object.entries({ tag: v.tag, status: v.status, order: v.order, limit: v.limit })
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  ).toString()

/**
 * Sends one raw request; resolves with its status, body and Tasklane-Seq. A connection that
 * breaks (a server closing an idle keep-alive connection as it is reused) is retried with the
 * same Idempotency-Key, so that a change is made once.
 */
async function send(url: string, method: string, body?: unknown) {
  const headers: Record<string, string> = { 'idempotency-key': randomBytes(16).toString('hex') }
  if (body !== undefined) headers['content-type'] = 'application/json'
  let response: Response | undefined
  for (let attempt = 0; response === undefined; attempt++) {
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch (error) {
      if (attempt === 3) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const text = await response.text()
  return {
    status: response.status,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
    seq: Number(response.headers.get('tasklane-seq')),
  }
}

/** Resolves once `done()` holds, checking every 20 ms; rejects naming `what` after 60 s. */
async function until(done: () => boolean, what: () => string): Promise<void> {
  for (const start = Date.now(); !done(); ) {
    if (Date.now() - start > 60_000) throw new Error(`${what()} did not happen within 60 s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A listener's view of one moment: the seq and the tasks it was shown. */
interface Moment {
  seq: number
  tasks: Task[]
}

/** Runs one scenario; `restartAfter`: restart the read server between the two halves of the changes. */
export async function check(setup: Setup, s: Scenario, restartAfter = false) {
  const proxy = await tcpProxy(Number(new URL(setup.readUrl).port))
  const client = createClient({
    baseUrl: proxy.url,
    retry: { initialDelayMs: 20, maxDelayMs: 200 },
    timeoutMs: 10_000,
  })
  const moments = s.views.map(() => [] as Moment[])
  const problems: string[] = []
  const lives = s.views.map((v, n) => {
    const live = new LiveTasks(client, v)
    const versions = new Map<number, number>()
    live.subscribe(() => {
      const tasks = live.tasks.map((task) => ({ ...task }))
      moments[n]?.push({ seq: live.seq, tasks })
      const ids = tasks.map((task) => task.id)
      const sorted = [...ids].sort((a, b) => (v.order === 'desc' ? b - a : a - b))
      if (new Set(ids).size !== ids.length) problems.push(`view ${n}: a duplicate in ${ids}`)
      if (ids.join() !== sorted.join()) problems.push(`view ${n}: out of order: ${ids}`)
      if (ids.length > (v.limit ?? Number.POSITIVE_INFINITY))
        problems.push(`view ${n}: over its limit`)
      for (const task of tasks) {
        if (!matches(v, task)) problems.push(`view ${n}: task ${task.id} outside the view`)
        if (task.version < (versions.get(task.id) ?? 0)) {
          problems.push(`view ${n}: task ${task.id} went back to version ${task.version}`)
        }
        versions.set(task.id, task.version)
      }
    })
    return live
  })
  try {
    /** How each copy stands, for a failure's message. */
    const states = () =>
      lives
        .map(
          (live, n) =>
            `view ${n} at seq ${live.seq}: caught up ${live.caughtUp}, closed ${live.closed}, error ${live.error}`,
        )
        .join('; ')
    await until(
      () => lives.every((live) => live.caughtUp),
      () => `every live copy caught up (${states()})`,
    )
    const listed = (await send(`${setup.readUrl}/tasks`, 'GET')).body as Task[]
    const ids = listed.map((task) => task.id)
    const deletedAt = new Map<number, number>()
    const write = async (steps: Step[], w: number) => {
      for (const [i, st] of steps.entries()) {
        const base = setup.writeUrls[(w + i) % setup.writeUrls.length] as string
        if (st.kind === 'create' || ids.length === 0) {
          const task =
            st.kind === 'create'
              ? { name: 'new', status: st.status, ...(st.tag ? { tag: st.tag } : {}) }
              : { name: 'new' }
          ids.push(((await send(`${base}/task`, 'POST', task)).body as Task).id)
        } else if (st.kind === 'delete') {
          const id = ids[st.pick % ids.length] as number
          const { status, seq } = await send(`${base}/tasks/${id}`, 'DELETE')
          if (status === 204) deletedAt.set(id, seq)
        } else if (Object.keys(st.patch).length > 0) {
          await send(`${base}/tasks/${ids[st.pick % ids.length]}`, 'PATCH', st.patch)
        }
      }
    }
    // How many connections each cut broke: the first finds at least every feed open.
    const broken: number[] = []
    const cutting = (async () => {
      for (const delay of s.cuts) {
        await new Promise((resolve) => setTimeout(resolve, delay))
        broken.push(proxy.connections)
        proxy.cut()
      }
    })()
    const half = (n: 0 | 1) =>
      Promise.all(s.writers.map((steps, w) => write(steps.slice(n * 5, n * 5 + 5), w)))
    await half(0)
    if (restartAfter) await setup.restart()
    await half(1)
    await cutting
    // A last task in each view, written last: once a copy has it, it has every change.
    const markers = []
    for (const v of s.views) {
      const task = { name: 'marker', tag: v.tag ?? 'red', status: v.status ?? 'open' }
      markers.push({ task, seq: (await send(`${setup.writeUrls[0]}/task`, 'POST', task)).seq })
    }
    for (const [n, v] of s.views.entries()) {
      const last = Math.max(...markers.filter((m) => matches(v, m.task)).map((m) => m.seq))
      const live = lives[n] as LiveTasks
      await until(
        () => live.seq >= last && live.caughtUp,
        () => `view ${n} (${query(v)}) at seq ${last} (${states()})`,
      )
      const fresh = await send(`${setup.readUrl}/tasks?${query(v)}`, 'GET')
      const brief = (tasks: readonly Task[]) =>
        tasks.map((t) => `${t.id}v${t.version}${t.tag ?? '-'}${t.status}`)
      if (!isDeepStrictEqual(live.tasks, fresh.body)) {
        // What a failure needs to be understood: the last moments the listeners saw.
        console.error(
          JSON.stringify({
            view: v,
            seq: live.seq,
            live: brief(live.tasks),
            freshSeq: fresh.seq,
            fresh: brief(fresh.body as Task[]),
            moments: moments[n]?.slice(-8).map((m) => ({ seq: m.seq, tasks: brief(m.tasks) })),
          }),
        )
      }
      expect({ view: v, seq: live.seq, tasks: live.tasks }).toEqual({
        view: v,
        seq: live.seq,
        tasks: fresh.body,
      })
    }
    for (const [n, list] of moments.entries()) {
      for (const { seq, tasks } of list) {
        for (const task of tasks) {
          if ((deletedAt.get(task.id) ?? Number.POSITIVE_INFINITY) <= seq) {
            problems.push(
              `view ${n}: task ${task.id}, deleted at seq ${deletedAt.get(task.id)}, shown at ${seq}`,
            )
          }
        }
      }
    }
    expect(problems).toEqual([])
    // (A restart may have broken them first.)
    if (s.cuts.length > 0 && !restartAfter) {
      expect(broken[0]).toBeGreaterThanOrEqual(s.views.length)
    }
  } finally {
    for (const live of lives) live.close()
    proxy.close()
  }
  expect(lives.every((live) => live.closed && !live.caughtUp)).toBe(true)
}

/**
 * One server on its own SQLite file for the describe block this is called in (started
 * before its tests, closed after them), and the Setup that reads from and writes to it and
 * restarts it on the same database and port.
 */
export function sqliteServerSetup(): () => Setup {
  let server: Server
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server?.close())
  return () => ({
    readUrl: server.url,
    writeUrls: [server.url],
    async restart() {
      await server.stop()
      server = await startServer(server.place)
    },
  })
}

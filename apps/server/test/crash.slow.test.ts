import { copyFileSync, existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SQLite } from '../src/storage/sqlite/sqlite-driver.js'
import { TASK_COLUMNS, type TaskRow, toTask } from '../src/storage/task-row.js'
import { listAll } from './support/http.js'
import { killAll, type ServerProcess, startServerProcess, within } from './support/processes.js'

const ROUNDS = 4
const CLIENTS = 24
/** The kill comes this long after the clients start, at a seeded random point. */
const KILL_AFTER_MS = { min: 150, max: 1_200 }
/** CRASH_SEED=<n> replays a run; every run logs its seed. */
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 2 ** 31)

/** mulberry32: a small seeded PRNG, so a failing run can be replayed exactly. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

const TAGS = [undefined, 'docs', 'ops', '日本語', 'émoji 🚀', 'مرحبا']

/** What one client knows of its own tasks: their state as last acknowledged, or deleted. */
type Known = Map<number, Task | 'deleted'>

/** A request a client sent that the kill left unanswered: it may or may not have committed. */
type InFlight =
  | { kind: 'create'; sent: { name: string; tag?: string } }
  | { kind: 'update'; id: number; patch: { name?: string; status?: 'open' | 'done' } }
  | { kind: 'delete'; id: number }

interface Round {
  /** Each client's tasks as last acknowledged (201, 200 or 204). */
  known: Known[]
  /** Each client's unanswered request, if the kill caught one in flight. */
  inFlight: (InFlight | undefined)[]
  /** Tasks answered with 201, per client in the order the answers came. */
  created: Task[][]
  /** Changes and deletes acknowledged. */
  changes: number
}

/** Sends one request; undefined when the kill cut it (no complete answer: it promised nothing). */
async function send(
  url: string,
  init: RequestInit,
): Promise<{ status: number; body: string } | undefined> {
  try {
    const response = await fetch(url, init)
    return { status: response.status, body: await response.text() }
  } catch {
    return undefined
  }
}

/**
 * CLIENTS loops until the server dies, each creating tasks and changing or deleting its own
 * (clients never touch each other's tasks, so each knows what its own must look like).
 */
function load(server: ServerProcess, round: number, next: () => number): Promise<Round> {
  const result: Round = { known: [], inFlight: [], created: [], changes: 0 }
  const client = async (c: number) => {
    const known: Known = new Map()
    const created: Task[] = []
    result.known[c] = known
    result.created[c] = created
    for (let i = 0; ; i++) {
      const live = [...known].filter((entry): entry is [number, Task] => entry[1] !== 'deleted')
      const roll = next()
      const pick = live[Math.floor(next() * live.length)]
      let request: InFlight
      if (roll < 0.5 || pick === undefined) {
        const tag = TAGS[(c + i) % TAGS.length]
        request = {
          kind: 'create',
          sent: { name: `round ${round} client ${c} task ${i}`, ...(tag && { tag }) },
        }
      } else if (roll < 0.85) {
        request = {
          kind: 'update',
          id: pick[0],
          patch:
            roll < 0.7
              ? { name: `renamed ${round}/${c}/${i}` }
              : { status: pick[1].status === 'open' ? 'done' : 'open' },
        }
      } else {
        request = { kind: 'delete', id: pick[0] }
      }
      result.inFlight[c] = request
      const answer =
        request.kind === 'create'
          ? await send(`${server.url}/task`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(request.sent),
            })
          : await send(`${server.url}/tasks/${request.id}`, {
              method: request.kind === 'update' ? 'PATCH' : 'DELETE',
              headers: { 'content-type': 'application/merge-patch+json' },
              ...(request.kind === 'update' ? { body: JSON.stringify(request.patch) } : {}),
            })
      if (answer === undefined) return
      const expected = { create: 201, update: 200, delete: 204 }[request.kind]
      if (answer.status !== expected) throw new Error(`got ${answer.status}: ${answer.body}`)
      result.inFlight[c] = undefined
      if (request.kind === 'delete') {
        known.set(request.id, 'deleted')
        result.changes++
        continue
      }
      const task = JSON.parse(answer.body) as Task
      known.set(task.id, task)
      if (request.kind === 'create') {
        expect(task).toMatchObject({ ...request.sent, status: 'open', version: 1 })
        created.push(task)
      } else {
        result.changes++
      }
    }
  }
  return Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c))).then(() => result)
}

/**
 * After a restart, each client's unanswered request has either committed or not: its
 * task's state is now what the database holds, and an unanswered create's task (if it
 * committed) is nobody's to check.
 */
function settle(known: Known[], inFlight: (InFlight | undefined)[], listed: Task[]): void {
  const byId = new Map(listed.map((task) => [task.id, task]))
  for (const [c, pending] of inFlight.entries()) {
    if (pending === undefined || pending.kind === 'create') continue
    const mine = known[c] as Known
    mine.set(pending.id, byId.get(pending.id) ?? 'deleted')
  }
}

/** integrity_check and every live task, read from a copy of the database and its WAL. */
function inspectCopy(filename: string, dir: string): { integrity: unknown; tasks: Task[] } {
  const copy = join(dir, `inspect-${Date.now()}.db`)
  copyFileSync(filename, copy)
  if (existsSync(`${filename}-wal`)) copyFileSync(`${filename}-wal`, `${copy}-wal`)
  const sqlite = new SQLite(copy)
  try {
    const integrity = sqlite.pragma('integrity_check', { simple: true })
    const rows = sqlite
      .prepare(
        `SELECT ${TASK_COLUMNS.join(', ')} FROM tasks
         WHERE status <> 'deleted' ORDER BY id`,
      )
      .all() as TaskRow[]
    return { integrity, tasks: rows.map(toTask) }
  } finally {
    sqlite.close()
  }
}

/**
 * Every acknowledged state is there: each client's tasks exactly as last acknowledged, or,
 * for the one request the kill left unanswered, exactly as that request would leave them
 * (it committed whole or not at all). Ids are unique and ascending.
 */
function expectAllKept(listed: Task[], known: Known[], inFlight: (InFlight | undefined)[]): void {
  const byId = new Map(listed.map((task) => [task.id, task]))
  for (const [c, mine] of known.entries()) {
    const pending = inFlight[c]
    for (const [id, state] of mine) {
      const found = byId.get(id)
      const touched = pending !== undefined && pending.kind !== 'create' && pending.id === id
      if (state === 'deleted') {
        expect(found, `task ${id} was deleted, acknowledged`).toBeUndefined()
      } else if (!touched) {
        expect(found).toEqual(state)
      } else if (pending.kind === 'delete') {
        if (found !== undefined) expect(found).toEqual(state)
      } else if (found?.version === state.version) {
        expect(found).toEqual(state)
      } else {
        // The unanswered change committed: whole, one version on.
        const next = { ...state, ...pending.patch } as Task
        // completedAt is the commit's time once a task becomes done, gone once reopened.
        const { completedAt: _, ...rest } = next
        const completedAt =
          next.status !== 'done'
            ? {}
            : { completedAt: state.status === 'done' ? state.completedAt : found?.updatedAt }
        expect(found).toEqual({
          ...rest,
          ...completedAt,
          version: state.version + 1,
          updatedAt: found?.updatedAt,
        })
      }
    }
  }
  const ids = listed.map((task) => task.id)
  expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] as number))).toBe(true)
}

describe('kill -9 at a random moment under concurrent creates, changes and deletes', () => {
  let dir: string
  let filename: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tasklane-crash-'))
    filename = join(dir, 'tasks.db')
  })

  afterAll(async () => {
    await killAll()
    await rm(dir, { recursive: true, force: true })
  })

  it(`keeps every acknowledged change across ${ROUNDS} crashes of one database`, async () => {
    console.log(`crash test seed ${SEED} (rerun with CRASH_SEED=${SEED})`)
    const next = random(SEED)
    const known: Known[] = []
    let inFlight: (InFlight | undefined)[] = []
    let highestBefore = 0

    for (let round = 1; round <= ROUNDS; round++) {
      const server = await startServerProcess({ DATABASE_URL: filename })
      // Everything acknowledged before every earlier crash is still there.
      const before = await listAll(server)
      expectAllKept(before, known, inFlight)
      highestBefore = Math.max(highestBefore, before.at(-1)?.id ?? 0)
      // What the last crash left in doubt is settled now: as the database holds it.
      settle(known, inFlight, before)
      inFlight = []

      const killAfter = Math.round(
        KILL_AFTER_MS.min + next() * (KILL_AFTER_MS.max - KILL_AFTER_MS.min),
      )
      const running = load(server, round, next)
      await new Promise((resolve) => setTimeout(resolve, killAfter))
      const exit = await server.kill()
      expect(exit.signal).toBe('SIGKILL')
      const result = await within(running, 10_000, 'the clients noticing the crash')

      const acked = result.created.flat()
      expect(acked.length, 'round acknowledged no create before the kill').toBeGreaterThan(0)
      // Ids grow in commit order: each client's answers, and past every earlier task.
      for (const mine of result.created) {
        expect(mine.every((task, i) => i === 0 || task.id > (mine[i - 1] as Task).id)).toBe(true)
      }
      expect(Math.min(...acked.map((task) => task.id))).toBeGreaterThan(highestBefore)
      known.push(...result.known)
      inFlight = [...Array(known.length - result.known.length).fill(undefined), ...result.inFlight]

      // The file as the dead process left it: intact, and holding every acknowledged change.
      const { integrity, tasks } = inspectCopy(filename, dir)
      expect(integrity).toBe('ok')
      expectAllKept(tasks, known, inFlight)
      console.log(
        `round ${round}: killed after ${killAfter} ms; ${acked.length} creates and ` +
          `${result.changes} changes acknowledged, ${result.inFlight.filter(Boolean).length} ` +
          `in flight; ${tasks.length} tasks in all`,
      )
    }

    // A last restart: the server recovers the file and shows everything, then stops cleanly.
    const server = await startServerProcess({ DATABASE_URL: filename })
    expectAllKept(await listAll(server), known, inFlight)
    expect(await within(server.stop(), 10_000, 'exit after SIGTERM')).toEqual({
      code: 0,
      signal: null,
    })
    const sqlite = new SQLite(filename)
    try {
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok')
    } finally {
      sqlite.close()
    }
  }, 60_000)
})

import { copyFileSync, existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SQLite } from '../src/storage/sqlite/driver.js'
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

interface Round {
  /** Tasks answered with 201, per client in the order the answers came. */
  acknowledged: Task[][]
  /** Requests that got no answer: in flight when the process died. */
  unanswered: number
}

/** CLIENTS loops, each creating tasks one after another until the server dies. */
function load(server: ServerProcess, round: number): Promise<Round> {
  const result: Round = { acknowledged: [], unanswered: 0 }
  const client = async (c: number) => {
    const mine: Task[] = []
    result.acknowledged.push(mine)
    for (let i = 0; ; i++) {
      const tag = TAGS[(c + i) % TAGS.length]
      const sent = { name: `round ${round} client ${c} task ${i}`, ...(tag && { tag }) }
      let response: Response
      try {
        response = await fetch(`${server.url}/task`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(sent),
        })
      } catch {
        result.unanswered++
        return
      }
      if (response.status !== 201)
        throw new Error(`got ${response.status}: ${await response.text()}`)
      let task: Task
      try {
        task = (await response.json()) as Task
      } catch {
        // The body was cut by the kill: the 201 did not fully arrive, so it promised nothing.
        result.unanswered++
        return
      }
      expect(task).toEqual({ id: task.id, ...sent })
      mine.push(task)
    }
  }
  return Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c))).then(() => result)
}

/** integrity_check and every row, read from a copy of the database and its WAL. */
function inspectCopy(filename: string, dir: string): { integrity: unknown; tasks: Task[] } {
  const copy = join(dir, `inspect-${Date.now()}.db`)
  copyFileSync(filename, copy)
  if (existsSync(`${filename}-wal`)) copyFileSync(`${filename}-wal`, `${copy}-wal`)
  const sqlite = new SQLite(copy)
  try {
    const integrity = sqlite.pragma('integrity_check', { simple: true })
    const rows = sqlite.prepare('SELECT id, name, tag FROM tasks ORDER BY id').all() as {
      id: number
      name: string
      tag: string | null
    }[]
    const tasks = rows.map(({ id, name, tag }) => (tag === null ? { id, name } : { id, name, tag }))
    return { integrity, tasks }
  } finally {
    sqlite.close()
  }
}

/** Every acknowledged task is in `listed`, unchanged; ids are unique and ascending. */
function expectAllKept(listed: Task[], acknowledged: Task[]): void {
  const byId = new Map(listed.map((task) => [task.id, task]))
  const missing = acknowledged.filter((task) => !byId.has(task.id))
  expect(missing, 'acknowledged tasks missing after the crash').toEqual([])
  for (const task of acknowledged) expect(byId.get(task.id)).toEqual(task)
  const ids = listed.map((task) => task.id)
  expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] as number))).toBe(true)
  expect(new Set(listed.map((task) => task.name)).size).toBe(listed.length)
}

describe('kill -9 at a random moment under concurrent creates', () => {
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

  it(`keeps every acknowledged task across ${ROUNDS} crashes of one database`, async () => {
    console.log(`crash test seed ${SEED} (rerun with CRASH_SEED=${SEED})`)
    const next = random(SEED)
    const acknowledged: Task[] = []
    let highestBefore = 0

    for (let round = 1; round <= ROUNDS; round++) {
      const server = await startServerProcess({ DATABASE_URL: filename })
      // Everything acknowledged before every earlier crash is still there.
      const before = await listAll(server)
      expectAllKept(before, acknowledged)
      highestBefore = before.at(-1)?.id ?? 0

      const killAfter = Math.round(
        KILL_AFTER_MS.min + next() * (KILL_AFTER_MS.max - KILL_AFTER_MS.min),
      )
      const running = load(server, round)
      await new Promise((resolve) => setTimeout(resolve, killAfter))
      const exit = await server.kill()
      expect(exit.signal).toBe('SIGKILL')
      const result = await within(running, 10_000, 'the clients noticing the crash')

      const acked = result.acknowledged.flat()
      expect(acked.length, 'round acknowledged no create before the kill').toBeGreaterThan(0)
      // Ids grow in commit order: each client's answers, and past every earlier task.
      for (const mine of result.acknowledged) {
        expect(mine.every((task, i) => i === 0 || task.id > (mine[i - 1] as Task).id)).toBe(true)
      }
      expect(Math.min(...acked.map((task) => task.id))).toBeGreaterThan(highestBefore)
      acknowledged.push(...acked)

      // The file as the dead process left it: intact, and holding every acknowledged task.
      const { integrity, tasks } = inspectCopy(filename, dir)
      expect(integrity).toBe('ok')
      expectAllKept(tasks, acknowledged)
      console.log(
        `round ${round}: killed after ${killAfter} ms; ${acked.length} acknowledged, ` +
          `${result.unanswered} in flight, ${tasks.length - before.length - acked.length} ` +
          `committed without an answer; ${tasks.length} tasks in all`,
      )
    }

    // A last restart: the server recovers the file and shows everything, then stops cleanly.
    const server = await startServerProcess({ DATABASE_URL: filename })
    expectAllKept(await listAll(server), acknowledged)
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

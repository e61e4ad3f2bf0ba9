import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp, openStorage } from '@tasklane/server'
import SQLite from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { plannedDue, plannedNotes, seedSqlite, seedTask, withDatabase } from '../src/seed.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('seedSqlite', () => {
  it('writes the tasks that seedTask describes, so the ceiling sends the same payloads', {
    timeout: 30_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tasklane-bench-test-'))
    dirs.push(dir)
    const filename = join(dir, 'tasks.db')
    // The server itself, its tables made by its migrations, with one task there already.
    const storage = await openStorage({ kind: 'sqlite', filename })
    const app = await buildApp({ storage, settings: { maxEventLoopDelayMs: 0 } })
    try {
      const create = (name: string) =>
        app.inject({ method: 'POST', url: '/task', payload: { name } })
      const first = await create('first')
      seedSqlite(filename, 50)
      const page = await app.inject({ method: 'GET', url: '/tasks?after=1&limit=100' })
      expect(page.json()).toEqual(
        Array.from({ length: 50 }, (_, i) => ({ ...seedTask(i + 1), id: i + 2 })),
      )
      // Each a change after the newest seq there was; the next write comes after them.
      const next = await create('next')
      expect(next.statusCode).toBe(201)
      const seq = (response: typeof next) => Number(response.headers['tasklane-seq'])
      expect(seq(next) - seq(first)).toBe(51)
      // A create goes below them in the manual order.
      expect(next.json().position > (seedTask(50).position as string)).toBe(true)
    } finally {
      await app.close()
      await storage.close()
    }
  })
})

describe('seedSqlite, planned', () => {
  it('fills priority, due, position, notes and search, so planning listings find the tasks', {
    timeout: 30_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tasklane-bench-test-'))
    dirs.push(dir)
    const filename = join(dir, 'tasks.db')
    const storage = await openStorage({ kind: 'sqlite', filename })
    const app = await buildApp({ storage, settings: { maxEventLoopDelayMs: 0 } })
    try {
      await app.inject({ method: 'POST', url: '/task', payload: { name: 'first' } })
      seedSqlite(filename, 1_000, { planned: true })
      const today = new Date().toISOString().slice(0, 10)
      const get = async (query: string) =>
        (await app.inject({ method: 'GET', url: `/tasks?limit=1000&${query}` })).json() as {
          id: number
          name: string
          notes?: string
          priority: number
          due?: string
          position: string
        }[]
      const all = await get('after=1')
      expect(all).toHaveLength(1_000)
      for (const [i, task] of all.entries()) {
        const n = i + 1
        expect(task).toMatchObject({ id: n + 1, name: `Task ${n}`, notes: plannedNotes(n) })
        expect(task.priority).toBe(n % 4)
        expect(task.due).toBe(plannedDue(n, today))
        expect(task.position).toBe(`g${String(n).padStart(7, '0')}`)
      }
      // Search: one word of the notes, and three (each of the digits 6, 7, 8 once).
      expect(await get('q=mango')).toHaveLength(271)
      expect((await get('q=mango%20nylon%20ocean')).map((t) => t.id - 1)).toEqual([
        678, 687, 768, 786, 867, 876,
      ])
      // Overdue: due days before today, 30 of every 61, three tasks in four.
      const overdue = await get('overdue=true')
      expect(overdue.length).toBeGreaterThan(0)
      for (const task of overdue) expect((task.due as string) < today).toBe(true)
      expect(overdue).toHaveLength(all.filter((t) => t.due !== undefined && t.due < today).length)
      // Each stored due has the parts the server writes: the day, no instant, and the last
      // millisecond of that UTC day as its sort key; every seeded task has its search row.
      const db = new SQLite(filename, { readonly: true })
      try {
        const rows = db
          .prepare('SELECT due, due_day, due_at, due_key, search FROM tasks WHERE id > 1')
          .all() as {
          due: string | null
          due_day: string | null
          due_at: number | null
          due_key: number | null
          search: string
        }[]
        for (const row of rows) {
          expect(row.due_day).toBe(row.due)
          expect(row.due_at).toBeNull()
          expect(row.due_key).toBe(
            row.due === null ? null : Date.parse(`${row.due}T00:00:00Z`) + 86_400_000 - 1,
          )
        }
        expect(db.prepare('SELECT count(*) FROM tasks_search').pluck().get()).toBe(1_001)
      } finally {
        db.close()
      }
      // The due sort follows the seeded keys: earliest first, undated last.
      const byDue = (await get('sort=due')).map((t) => t.due ?? '~')
      expect(byDue).toEqual([...byDue].sort())
    } finally {
      await app.close()
      await storage.close()
    }
  })
})

describe('withDatabase', () => {
  it('replaces the database name and keeps everything else', () => {
    expect(withDatabase('postgres://u:p@127.0.0.1:5432/app?sslmode=disable', 'scratch')).toBe(
      'postgres://u:p@127.0.0.1:5432/scratch?sslmode=disable',
    )
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp, openStorage } from '@tasklane/server'
import { afterEach, describe, expect, it } from 'vitest'
import { seedSqlite, seedTask, withDatabase } from '../src/seed.js'

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

describe('withDatabase', () => {
  it('replaces the database name and keeps everything else', () => {
    expect(withDatabase('postgres://u:p@127.0.0.1:5432/app?sslmode=disable', 'scratch')).toBe(
      'postgres://u:p@127.0.0.1:5432/scratch?sslmode=disable',
    )
  })
})

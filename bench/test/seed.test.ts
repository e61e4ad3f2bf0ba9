import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { seedSqlite, seedTask, withDatabase } from '../src/seed.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('seedSqlite', () => {
  it('writes the tasks that seedTask describes, so the ceiling sends the same payloads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tasklane-bench-test-'))
    dirs.push(dir)
    const file = join(dir, 'tasks.db')
    const db = new SQLite(file)
    db.exec(
      'CREATE TABLE tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, tag TEXT)',
    )
    db.close()

    seedSqlite(file, 50)

    const check = new SQLite(file, { readonly: true })
    const rows = check.prepare('SELECT id, name, tag FROM tasks ORDER BY id').all() as {
      id: number
      name: string
      tag: string | null
    }[]
    check.close()
    expect(rows).toHaveLength(50)
    expect(rows.map((row) => (row.tag === null ? { id: row.id, name: row.name } : row))).toEqual(
      Array.from({ length: 50 }, (_, i) => seedTask(i + 1)),
    )
  })
})

describe('withDatabase', () => {
  it('replaces the database name and keeps everything else', () => {
    expect(withDatabase('postgres://u:p@127.0.0.1:5432/app?sslmode=disable', 'scratch')).toBe(
      'postgres://u:p@127.0.0.1:5432/scratch?sslmode=disable',
    )
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { SEEDED_AT, seedSqlite, seedTask, withDatabase } from '../src/seed.js'

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
    // The columns of the server's tasks table (its migrations), with one task there already.
    db.exec(`CREATE TABLE tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
      tag TEXT, status TEXT NOT NULL, version INTEGER NOT NULL, created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL, seq INTEGER NOT NULL UNIQUE, prev_seq INTEGER NOT NULL,
      prev_tag TEXT, prev_status TEXT)`)
    db.exec(`INSERT INTO tasks (name, status, version, created_at, updated_at, seq, prev_seq)
      VALUES ('first', 'open', 1, 0, 0, 7, 0)`)
    db.close()

    seedSqlite(file, 50)

    const check = new SQLite(file, { readonly: true })
    const rows = check
      .prepare(
        'SELECT id, name, tag, status, version, created_at, updated_at, seq FROM tasks WHERE id > 1 ORDER BY id',
      )
      .all() as Record<string, unknown>[]
    check.close()
    expect(rows).toHaveLength(50)
    const time = new Date(SEEDED_AT).toISOString()
    expect(
      rows.map(({ tag, created_at, updated_at, seq: _seq, id, ...row }) => ({
        ...row,
        id: (id as number) - 1,
        ...(tag === null ? {} : { tag }),
        createdAt: new Date(created_at as number).toISOString(),
        updatedAt: new Date(updated_at as number).toISOString(),
      })),
    ).toEqual(Array.from({ length: 50 }, (_, i) => ({ ...seedTask(i + 1), name: `Task ${i + 1}` })))
    expect(time).toBe(seedTask(1).createdAt)
    // Each a change after the newest seq there was.
    const seqs = new SQLite(file, { readonly: true })
    expect(seqs.prepare('SELECT seq FROM tasks ORDER BY id').pluck().all()).toEqual([
      7,
      ...Array.from({ length: 50 }, (_, i) => 8 + i),
    ])
    seqs.close()
  })
})

describe('withDatabase', () => {
  it('replaces the database name and keeps everything else', () => {
    expect(withDatabase('postgres://u:p@127.0.0.1:5432/app?sslmode=disable', 'scratch')).toBe(
      'postgres://u:p@127.0.0.1:5432/scratch?sslmode=disable',
    )
  })
})

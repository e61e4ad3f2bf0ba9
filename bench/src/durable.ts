import { join } from 'node:path'
import SQLite from 'better-sqlite3'

/**
 * Inserts per second that SQLite itself reaches on this disk with tasklane's settings
 * (WAL, synchronous=FULL), committing `perCommit` rows at a time for about `seconds`.
 * The reference for what group commit can gain: the disk, not SQLite, sets the
 * one-per-commit figure.
 */
export function rawSqliteInserts(dir: string, perCommit: number, seconds: number): number {
  const db = new SQLite(join(dir, `raw-${perCommit}.db`))
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = FULL')
    db.exec(
      'CREATE TABLE tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, tag TEXT)',
    )
    const insert = db.prepare('INSERT INTO tasks (name, tag) VALUES (?, ?)')
    const commit = db.transaction((count: number) => {
      for (let i = 0; i < count; i++) insert.run('bench task', 'bench')
    })
    const start = performance.now()
    let rows = 0
    while (performance.now() - start < seconds * 1000) {
      commit(perCommit)
      rows += perCommit
    }
    return rows / ((performance.now() - start) / 1000)
  } finally {
    db.close()
  }
}

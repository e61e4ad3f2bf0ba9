import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { SQLite } from '../src/storage/sqlite/sqlite-driver.js'

const require = createRequire(import.meta.url)
const nodeMajor = Number(process.versions.node.split('.')[0])

describe('the SQLite driver', () => {
  it.runIf(nodeMajor < 22)('is better-sqlite3 12 on Node 20, which 13 does not support', () => {
    expect(SQLite).toBe(require('better-sqlite3'))
    expect(require('better-sqlite3/package.json').version).toMatch(/^12\./)
  })

  it.runIf(nodeMajor >= 22)('is better-sqlite3 13 from Node 22 on (12 aborts on Node 24)', () => {
    expect(SQLite).toBe(require('better-sqlite3-napi'))
    expect(require('better-sqlite3-napi/package.json').version).toMatch(/^13\./)
  })

  it('opens a database', () => {
    const db = new SQLite(':memory:')
    try {
      expect(db.prepare('select sqlite_version() as v').get()).toMatchObject({
        v: expect.any(String),
      })
    } finally {
      db.close()
    }
  })
})

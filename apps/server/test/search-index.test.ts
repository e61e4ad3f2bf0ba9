// SQLite's search index is an FTS5 index of tasks.search that keeps no copy of the text
// (migration 0012): every change must tell it the exact text it indexed, or the index
// drifts from the tasks. Renames, notes, deletes, moves and a list's deletion, then FTS5's
// own check of the index against the tasks, and no index entry for a task that is gone.
import type { Task } from '@tasklane/contract'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN_TOKEN,
  as,
  type Caller,
  createList,
  createTaskIn,
  expectStatus,
} from './support/access.js'
import { startServer, type TestServer } from './support/server.js'
import { createTestDatabase, onPostgres, type TestDatabase } from './support/test-database.js'

describe.skipIf(onPostgres)('the SQLite search index', () => {
  let database: TestDatabase
  let server: TestServer
  let admin: Caller

  beforeAll(async () => {
    database = await createTestDatabase({ kind: 'sqlite' })
    server = await startServer({ testDatabase: database, settings: { apiToken: ADMIN_TOKEN } })
    admin = as(server, ADMIN_TOKEN)
  })

  afterAll(async () => {
    await server.close()
    await database.drop()
  })

  /** The ids search finds for `q`. */
  async function found(q: string): Promise<number[]> {
    const tasks = expectStatus<Task[]>(await admin.get(`/tasks?q=${encodeURIComponent(q)}`), 200)
    return tasks.map((task) => task.id).sort((a, b) => a - b)
  }

  /** The rowids the FTS5 index itself holds for a LIKE pattern (no check against the tasks). */
  function indexed(pattern: string): Promise<number[]> {
    return database.use(async (db) => {
      const { rows } = await sql<{ id: number }>`select rowid as id from tasks_search
        where search like ${pattern} order by rowid`.execute(db)
      return rows.map((row) => Number(row.id))
    })
  }

  it('keeps the index equal to the tasks through every kind of change', async () => {
    const other = await createList(admin, 'Elsewhere')
    const kept = await createTaskIn(admin, 1, 'Quokka census')
    const renamed = await createTaskIn(admin, 1, 'Wombat feeding')
    const noted = await createTaskIn(admin, 1, 'Platypus survey')
    const deleted = await createTaskIn(admin, 1, 'Echidna walk')
    const moved = await createTaskIn(admin, 1, 'Numbat count')
    await createTaskIn(admin, other.id, 'Bilby tracking')

    expectStatus(await admin.patch(`/tasks/${renamed.id}`, { name: 'Dingo feeding' }), 200)
    expectStatus(await admin.patch(`/tasks/${noted.id}`, { notes: 'Count the wallabies' }), 200)
    expectStatus(await admin.patch(`/tasks/${noted.id}`, { notes: null }), 200)
    expect((await admin.delete(`/tasks/${deleted.id}`)).statusCode).toBe(204)
    expectStatus(await admin.post(`/tasks/${moved.id}/move`, { listId: other.id, to: 'top' }), 200)
    expect((await admin.delete(`/lists/${other.id}`)).statusCode).toBe(204)

    expect(await found('quokka')).toEqual([kept.id])
    expect(await found('dingo')).toEqual([renamed.id])
    expect(await found('wombat')).toEqual([])
    expect(await found('wallabies')).toEqual([])
    expect(await found('platypus')).toEqual([noted.id])
    // Gone from the index itself, not only filtered out of the answer.
    for (const word of ['wombat', 'wallabies', 'echidna', 'numbat', 'bilby']) {
      expect(await indexed(`% ${word}%`)).toEqual([])
    }
    expect(await indexed('% dingo%')).toEqual([renamed.id])
    // FTS5's own check: every live task's text indexed exactly, nothing else (rank 1: against
    // the tasks table, whose deleted rows hold a text with no trigram).
    await database.use((db) =>
      sql`insert into tasks_search (tasks_search, rank) values ('integrity-check', 1)`.execute(db),
    )
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Task } from '@tasklane/contract'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { openDatabase } from '../src/db/database.js'
import { insertTask } from '../src/tasks/repository.js'
import { createTask, get, startServer, type TestServer } from './helpers.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

describe('SQLite storage', () => {
  it('uses WAL journal mode', async () => {
    const { rows } = await sql<{
      journal_mode: string
    }>`PRAGMA journal_mode`.execute(server.database.db)
    expect(rows).toEqual([{ journal_mode: 'wal' }])
  })

  it('uses synchronous=FULL so a commit reaches the disk before the response', async () => {
    const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(
      server.database.db,
    )
    expect(rows).toEqual([{ synchronous: 2 }])
  })

  it('stores a tag-less task with a NULL tag', async () => {
    const task = await createTask(server, { name: 'null tag' })
    const row = await server.database.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', task.id)
      .executeTakeFirst()
    expect(row).toEqual({ id: task.id, name: 'null tag', tag: null })
  })

  it('never reuses the id of a deleted task', async () => {
    const first = await createTask(server, { name: 'to delete' })
    await server.database.db.deleteFrom('tasks').where('id', '=', first.id).execute()
    const second = await createTask(server, { name: 'after delete' })
    expect(second.id).toBeGreaterThan(first.id)
    expect((await get(server, `/tasks/${first.id}`)).status).toBe(404)
  })

  it('returns the inserted task from the repository', async () => {
    const task = await insertTask(server.database.db, { name: 'repo', tag: 'r' })
    expect(task).toEqual({ id: expect.any(Number), name: 'repo', tag: 'r' })
    const untagged = await insertTask(server.database.db, { name: 'repo' })
    expect(untagged).toEqual({ id: task.id + 1, name: 'repo' })
  })
})

describe('restart', () => {
  let dir: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tasklane-restart-'))
  })

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('keeps created tasks and keeps ids increasing across a restart', async () => {
    const filename = join(dir, 'nested', 'tasks.db')
    const firstRun = await openDatabase({ kind: 'sqlite', filename })
    const app1 = await buildApp({ database: firstRun })
    const created = await app1.inject({
      method: 'POST',
      url: '/task',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'survives 🚀', tag: '日本' }),
    })
    expect(created.statusCode).toBe(201)
    const task = created.json<Task>()
    await app1.close()
    await firstRun.close()

    const secondRun = await openDatabase({ kind: 'sqlite', filename })
    const app2 = await buildApp({ database: secondRun })
    try {
      const listed = await app2.inject({ method: 'GET', url: '/tasks' })
      expect(listed.statusCode).toBe(200)
      expect(listed.json()).toEqual([{ id: task.id, name: 'survives 🚀', tag: '日本' }])
      const next = await app2.inject({
        method: 'POST',
        url: '/task',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'second run' }),
      })
      expect(next.statusCode).toBe(201)
      expect(next.json<Task>().id).toBeGreaterThan(task.id)
      expect(next.headers.location).toBe(`/tasks/${next.json<Task>().id}`)
    } finally {
      await app2.close()
      await secondRun.close()
    }
  })
})

import { MAX_TASK_ID, type Task } from '@tasklane/contract'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { openDatabase } from '../src/db/database.js'
import {
  createTask,
  createTestDatabase,
  expectError,
  get,
  onPostgres,
  postJson,
  postRaw,
  startServer,
  type TestDatabase,
  type TestServer,
} from './helpers.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

describe.runIf(!onPostgres)('SQLite storage', () => {
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
})

describe.runIf(onPostgres)('PostgreSQL storage', () => {
  it('stores ids in a bigint identity column', async () => {
    const { rows } = await sql<{ data_type: string; is_identity: string; generation: string }>`
      select data_type, is_identity, identity_generation as generation
      from information_schema.columns
      where table_schema = current_schema() and table_name = 'tasks' and column_name = 'id'`.execute(
      server.database.db,
    )
    expect(rows).toEqual([{ data_type: 'bigint', is_identity: 'YES', generation: 'ALWAYS' }])
  })

  it('reads bigint columns as JS numbers, not strings', async () => {
    const task = await createTask(server, { name: 'int8' })
    const { rows } = await sql<{ id: unknown; big: unknown }>`
      select id, ${sql.lit(MAX_TASK_ID)}::bigint as big from tasks where id = ${task.id}`.execute(
      server.database.db,
    )
    expect(rows).toEqual([{ id: task.id, big: MAX_TASK_ID }])
    const response = await get(server, `/tasks/${task.id}`)
    expect(await response.text()).toBe(`{"id":${task.id},"name":"int8"}`)
  })

  it('would itself refuse U+0000, so the 400 is what keeps it away', async () => {
    await expect(
      server.database.db.insertInto('tasks').values({ name: 'a\u0000b', tag: null }).execute(),
    ).rejects.toThrow()
    const before = await server.database.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
    await expectError(
      await postRaw(server, '{"name":"nul \\u0000 here"}'),
      400,
      'Field "name" must not contain the NUL character (U+0000).',
    )
    await expectError(
      await postRaw(server, '{"name":"ok","tag":"\\u0000"}'),
      400,
      'Field "tag" must not contain the NUL character (U+0000).',
    )
    const after = await server.database.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
    expect(after.count).toBe(before.count)
  })
})

describe('storage', () => {
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

  it('returns the written tasks from writeTasks, in order, without a tag key when untagged', async () => {
    const now = Date.now()
    const [tagged, untagged] = await server.database.writeTasks(
      [
        { name: 'repo', tag: 'r', fingerprint: '' },
        { name: 'repo', fingerprint: '' },
      ],
      now,
      now,
    )
    expect(tagged).toEqual({
      task: { id: expect.any(Number), name: 'repo', tag: 'r' },
      replayed: false,
    })
    const id = (tagged as { task: { id: number } }).task.id
    expect(untagged).toEqual({ task: { id: id + 1, name: 'repo' }, replayed: false })
  })
})

describe('restart', () => {
  let testDatabase: TestDatabase

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
  })

  afterAll(async () => {
    await testDatabase?.drop()
  })

  it('keeps created tasks and keeps ids increasing across a restart', async () => {
    const { config } = testDatabase
    const firstRun = await openDatabase(
      // SQLite: in a directory that does not exist yet, which the server creates.
      config.kind === 'sqlite'
        ? { ...config, filename: config.filename.replace(/tasks\.db$/, 'nested/tasks.db') }
        : config,
    )
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

    const secondRun = await openDatabase(
      config.kind === 'sqlite'
        ? { ...config, filename: config.filename.replace(/tasks\.db$/, 'nested/tasks.db') }
        : config,
    )
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

describe('id limit', () => {
  let limited: TestServer

  beforeAll(async () => {
    limited = await startServer()
    // Fast-forward the id generator to just below 2^53-1.
    if (onPostgres) {
      await sql`alter table tasks alter column id restart with ${sql.lit(MAX_TASK_ID - 1)}`.execute(
        limited.database.db,
      )
    } else {
      await createTask(limited, { name: 'first' })
      await sql`update sqlite_sequence set seq = ${MAX_TASK_ID - 2} where name = 'tasks'`.execute(
        limited.database.db,
      )
    }
  })

  afterAll(async () => {
    await limited?.close()
  })

  it('issues ids up to 2^53-1 and never one above it', async () => {
    expect((await createTask(limited, { name: 'almost' })).id).toBe(MAX_TASK_ID - 1)
    const last = await createTask(limited, { name: 'last' })
    expect(last.id).toBe(MAX_TASK_ID)
    expect(Number.isSafeInteger(last.id)).toBe(true)
    const refused = await postJson(limited, { name: 'one too many' })
    expect(refused.status).toBeGreaterThanOrEqual(500)
    const rows = await limited.database.db.selectFrom('tasks').select('id').execute()
    expect(Math.max(...rows.map((row) => Number(row.id)))).toBe(MAX_TASK_ID)
  })
})

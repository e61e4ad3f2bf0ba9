import { MAX_TASK_ID, type Task } from '@tasklane/contract'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openConnection } from '../src/storage/sqlite/sqlite-connection.js'
import {
  aTask,
  createTask,
  deleteRaw,
  get,
  patchRaw,
  postJson,
  postRaw,
  seqOf,
} from './support/http.js'
import { startServer, type TestServer } from './support/server.js'
import { createTestDatabase, onPostgres, type TestDatabase } from './support/test-database.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

const countTasks = () =>
  server.testDatabase.use(async (db) => {
    const { count } = await db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
    return Number(count)
  })

describe.runIf(!onPostgres)('SQLite storage', () => {
  it('opens every connection in WAL mode with synchronous=FULL, so a commit is on disk before its 201', async () => {
    // openConnection opens the server's reading connection and its writer thread's alike.
    const connection = openConnection(server.testDatabase.url)
    try {
      expect(connection.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(connection.pragma('synchronous', { simple: true })).toBe(2)
    } finally {
      connection.close()
    }
  })

  it('leaves the file in WAL mode', async () => {
    const { rows } = await server.testDatabase.use((db) =>
      sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(db),
    )
    expect(rows).toEqual([{ journal_mode: 'wal' }])
  })
})

describe.runIf(onPostgres)('PostgreSQL storage', () => {
  it('stores ids in a bigint identity column', async () => {
    const { rows } = await server.testDatabase.use((db) =>
      sql<{ data_type: string; is_identity: string; generation: string }>`
        select data_type, is_identity, identity_generation as generation
        from information_schema.columns
        where table_schema = current_schema() and table_name = 'tasks' and column_name = 'id'`.execute(
        db,
      ),
    )
    expect(rows).toEqual([{ data_type: 'bigint', is_identity: 'YES', generation: 'ALWAYS' }])
  })

  it('reads bigint ids, versions, times and seqs as JS numbers, not strings', async () => {
    const task = await createTask(server, { name: 'int8' })
    const found = await server.storage.findTask(task.id)
    expect(found).toEqual({ value: task, seq: expect.any(Number), accessSeq: expect.any(Number) })
    const { value: listed, seq } = await server.storage.readPage({ after: task.id - 1 }, 1)
    expect(listed).toEqual([task])
    expect(typeof listed[0]?.id).toBe('number')
    expect(typeof listed[0]?.version).toBe('number')
    expect(typeof seq).toBe('number')
    expect(typeof (await server.storage.newestSeq())).toBe('number')
    const response = await get(server, `/tasks/${task.id}`)
    expect(await response.text()).toBe(
      `{"id":${task.id},"listId":1,"name":"int8","status":"open","priority":0,"position":"${task.position}","version":1,"createdAt":"${task.createdAt}","createdBy":"local","updatedAt":"${task.updatedAt}","updatedBy":"local"}`,
    )
  })

  it('would itself refuse U+0000, so the 400 is what keeps it away', async () => {
    await expect(
      server.testDatabase.use((db) =>
        db
          .insertInto('tasks')
          .values({
            list_id: 1,
            name: 'a\u0000b',
            tag: null,
            status: 'open',
            version: 1,
            created_at: 0,
            created_by: 'local',
            updated_at: 0,
            updated_by: 'local',
            seq: 1_000_000,
            prev_seq: 0,
            created_seq: 1_000_000,
            priority: 0,
            search: ' ',
          })
          .execute(),
      ),
    ).rejects.toThrow()
    const before = await countTasks()
    expect((await postRaw(server, '{"name":"nul \\u0000 here"}')).status).toBe(400)
    expect((await postRaw(server, '{"name":"ok","tag":"\\u0000"}')).status).toBe(400)
    expect(await countTasks()).toBe(before)
  })
})

describe('storage', () => {
  const rowOf = (id: number) =>
    server.testDatabase.use((db) =>
      db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst(),
    )

  it('stores a task without a tag with a NULL tag, its times in ms and the seq of its create', async () => {
    const response = await postJson(server, { name: 'null tag' })
    const task = (await response.json()) as Task
    const created = Date.parse(task.createdAt)
    expect(await rowOf(task.id)).toEqual({
      id: task.id,
      name: 'null tag',
      tag: null,
      status: 'open',
      version: 1,
      created_at: created,
      updated_at: created,
      seq: seqOf(response),
      prev_seq: 0,
      prev_tag: null,
      prev_status: null,
      list_id: 1,
      created_by: 'local',
      updated_by: 'local',
      prev_list_id: null,
      created_seq: seqOf(response),
      notes: null,
      due: null,
      due_day: null,
      due_at: null,
      due_key: null,
      priority: 0,
      completed_at: null,
      position: task.position,
      search: ' null tag ',
      prev_priority: null,
      prev_due: null,
    })
  })

  it('keeps a deleted task as a tombstone: its id, version and seq, no name, no tag', async () => {
    const task = await createTask(server, { name: 'to delete', tag: 'gone' })
    const patched = await patchRaw(server, task.id, { status: 'done' })
    const changed = (await patched.json()) as Task
    const deleted = await deleteRaw(server, task.id)
    expect(deleted.status).toBe(204)
    expect(await rowOf(task.id)).toEqual({
      id: task.id,
      name: '',
      tag: null,
      status: 'deleted',
      version: 2,
      created_at: Date.parse(task.createdAt),
      updated_at: expect.any(Number),
      seq: seqOf(deleted),
      prev_seq: seqOf(patched),
      prev_tag: 'gone',
      prev_status: 'done',
      list_id: 1,
      created_by: 'local',
      updated_by: 'local',
      prev_list_id: 1,
      created_seq: expect.any(Number),
      notes: null,
      due: null,
      due_day: null,
      due_at: null,
      due_key: null,
      priority: 0,
      completed_at: Date.parse(changed.completedAt as string),
      position: task.position,
      search: ' ',
      prev_priority: 0,
      prev_due: null,
    })
    expect(Date.parse(changed.updatedAt)).toBeLessThanOrEqual(
      (await rowOf(task.id))?.updated_at as number,
    )
    const next = await createTask(server, { name: 'after the API delete' })
    expect(next.id).toBeGreaterThan(task.id)
    expect((await get(server, `/tasks/${task.id}`)).status).toBe(404)
  })

  it('never reuses the id of a row removed from the table', async () => {
    const first = await createTask(server, { name: 'to delete' })
    await server.testDatabase.use((db) =>
      db.deleteFrom('tasks').where('id', '=', first.id).execute(),
    )
    const second = await createTask(server, { name: 'after delete' })
    expect(second.id).toBeGreaterThan(first.id)
    expect((await get(server, `/tasks/${first.id}`)).status).toBe(404)
  })
})

describe('restart', () => {
  let testDatabase: TestDatabase

  beforeAll(async () => {
    // SQLite: in a directory that does not exist yet, which the server creates.
    testDatabase = await createTestDatabase({ file: 'nested/tasks.db' })
  })

  afterAll(async () => {
    await testDatabase?.drop()
  })

  it('keeps created tasks and keeps ids increasing across a restart', async () => {
    const first = await startServer({ testDatabase })
    const task = await createTask(first, { name: 'survives 🚀', tag: '日本' })
    await first.close()

    const second = await startServer({ testDatabase })
    try {
      expect(task).toEqual(aTask({ name: 'survives 🚀', tag: '日本' }))
      expect(await (await get(second, '/tasks')).json()).toEqual([task])
      const next = await postJson(second, { name: 'second run' })
      expect(next.status).toBe(201)
      const created = (await next.json()) as Task
      expect(created.id).toBeGreaterThan(task.id)
      expect(next.headers.get('location')).toBe(`/tasks/${created.id}`)
    } finally {
      await second.close()
    }
  })
})

describe('id limit', () => {
  let limited: TestServer

  beforeAll(async () => {
    limited = await startServer()
    // Fast-forward the id generator to just below 2^53-1.
    if (onPostgres) {
      await limited.testDatabase.use((db) =>
        sql`alter table tasks alter column id restart with ${sql.lit(MAX_TASK_ID - 1)}`.execute(db),
      )
    } else {
      await createTask(limited, { name: 'first' })
      await limited.testDatabase.use((db) =>
        sql`update sqlite_sequence set seq = ${MAX_TASK_ID - 2} where name = 'tasks'`.execute(db),
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
    const ids = await limited.testDatabase.use((db) =>
      db.selectFrom('tasks').select('id').execute(),
    )
    expect(Math.max(...ids.map((row) => Number(row.id)))).toBe(MAX_TASK_ID)
  })
})

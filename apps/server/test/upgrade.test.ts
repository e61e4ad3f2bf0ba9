import { createHash } from 'node:crypto'
import type { Task } from '@tasklane/contract'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../src/storage/migrations/migrator.js'
import { subscribe } from './support/events.js'
import { aTask, get, patchTask, postJson, seqOf } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'
import { backend, createTestDatabase, type TestDatabase } from './support/test-database.js'

/** The last migration of the release before the task lifecycle. */
const BEFORE_LIFECYCLE = '0005-write-function'

/** The Idempotency-Key digest of a create, as that release computed it. */
const digest = (name: string, tag: string | null) =>
  createHash('sha256')
    .update(JSON.stringify([name, tag]))
    .digest('base64url')

const OLD_TASKS = [
  { name: 'first', tag: 'old', key: 'old-key-1' },
  { name: 'second', tag: null, key: undefined },
  { name: 'third', tag: null, key: 'old-key-3' },
  { name: 'fourth', tag: null, key: undefined },
] as const

/**
 * A database as the previous release left it: its schema (migrations 0001–0005), tasks and
 * keys written the way it wrote them (SQLite: its INSERTs; PostgreSQL: its write function).
 */
async function previousRelease(testDatabase: TestDatabase, keyTime: number): Promise<void> {
  await testDatabase.use(async (db) => {
    await migrate(db as never, backend, BEFORE_LIFECYCLE)
    for (const { name, tag, key } of OLD_TASKS) {
      const fingerprint = digest(name, tag)
      if (backend === 'postgres') {
        await sql`select tasklane_write_tasks(${[name]}::text[], ${[tag]}::text[], ${[key ?? null]}::text[],
          ${[fingerprint]}::text[], ${keyTime}::bigint, 0::bigint, 'old'::text, 1::int)`.execute(db)
        continue
      }
      const { rows } = await sql<{
        id: number
      }>`insert into tasks (name, tag) values (${name}, ${tag}) returning id`.execute(db)
      if (key === undefined) continue
      await sql`insert into idempotency_keys (key, fingerprint, task_id, created_at)
        values (${key}, ${fingerprint}, ${rows[0]?.id}, ${keyTime})`.execute(db)
    }
  })
}

describe('upgrading a database written by the release before the task lifecycle', () => {
  let testDatabase: TestDatabase
  let server: TestServer
  const keyTime = Date.now() - 60_000

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    await previousRelease(testDatabase, keyTime)
    server = await startServer({ testDatabase })
  })

  afterAll(async () => {
    await server?.close()
    await testDatabase?.drop()
  })

  it('keeps every task and id, open, version 1, created as late as it can have been', async () => {
    const response = await get(server, '/tasks')
    const tasks = (await response.json()) as Task[]
    expect(tasks).toEqual(
      OLD_TASKS.map(({ name, tag }, i) =>
        aTask({ id: i + 1, name, ...(tag === null ? {} : { tag }) }),
      ),
    )
    for (const task of tasks) expect(task.createdAt).toBe(task.updatedAt)
    // The first and third have keys, whose times say when they were created; the second was
    // created before the third's key: as late as that.
    const keyed = new Date(keyTime).toISOString()
    expect(tasks.slice(0, 3).map((task) => task.createdAt)).toEqual([keyed, keyed, keyed])
    // The fourth was created after the last key: as late as the upgrade.
    expect(Date.parse(tasks[3]?.createdAt ?? '')).toBeGreaterThan(keyTime)
    expect(Date.parse(tasks[3]?.createdAt ?? '')).toBeLessThanOrEqual(Date.now())
    // The feed's old positions were task ids: each task's seq is its id.
    expect(seqOf(response)).toBe(OLD_TASKS.length)
  })

  it('sends each old task on the feed at its id', async () => {
    const feed = await subscribe(server, '/tasks/events?after=1')
    try {
      const events = await feed.untilEvents(3)
      expect(events.map((event) => [event.type, event.seq, event.task.id])).toEqual([
        ['created', 2, 2],
        ['created', 3, 3],
        ['created', 4, 4],
      ])
    } finally {
      feed.close()
    }
  })

  it('replays an Idempotency-Key stored by the old release with the task it created', async () => {
    const response = await postJson(server, { name: 'first', tag: 'old' }, 'old-key-1')
    expect(response.status).toBe(201)
    expect(response.headers.get('idempotent-replayed')).toBe('true')
    const replayed = (await response.json()) as Task
    expect(replayed).toEqual(aTask({ id: 1, name: 'first', tag: 'old' }))
    expect(replayed.createdAt).toBe(new Date(keyTime).toISOString())
    expect(seqOf(response)).toBe(1)
    expect((await postJson(server, { name: 'other' }, 'old-key-3')).status).toBe(422)
  })

  it('goes on from there: new ids and seqs follow the old ones, old tasks can change', async () => {
    const created = await postJson(server, { name: 'new' })
    expect(((await created.json()) as Task).id).toBe(OLD_TASKS.length + 1)
    expect(seqOf(created)).toBe(OLD_TASKS.length + 1)
    expect(await patchTask(server, 2, { status: 'done' })).toMatchObject({
      id: 2,
      status: 'done',
      version: 2,
    })
  })
})

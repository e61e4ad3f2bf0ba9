import type { Task } from '@tasklane/contract'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStorage, type Storage, type TaskWrite } from '../src/storage/index.js'
import { postgresStatements } from '../src/storage/postgres/batch.js'
import { type BatchStatements, writeBatch } from '../src/storage/write-batch.js'
import {
  backend,
  createTestDatabase,
  onPostgres,
  type TestDatabase,
} from './support/test-database.js'

// The write algorithm (storage/write-batch.ts) through the Storage port of each backend:
// SQLite's writer thread, PostgreSQL, and `:memory:` SQLite, which runs it on the main
// thread. Keys expire after a day here as in the server; the clock is the test's.
const DAY = 24 * 60 * 60 * 1000
const T0 = Date.parse('2030-01-01T00:00:00Z')

interface Opened {
  readonly storage: Storage
  close(): Promise<void>
}

const storages: [string, () => Promise<Opened>][] =
  backend === 'postgres'
    ? [['PostgreSQL', () => openTestStorage()]]
    : [
        ['an SQLite file (writer thread)', () => openTestStorage()],
        [
          'SQLite :memory: (main thread)',
          async () => {
            const storage = await openStorage({ kind: 'sqlite', filename: ':memory:' })
            return { storage, close: () => storage.close() }
          },
        ],
      ]

async function openTestStorage(): Promise<Opened> {
  const testDatabase: TestDatabase = await createTestDatabase()
  const storage = await openStorage(testDatabase.config)
  return {
    storage,
    async close() {
      await storage.close()
      await testDatabase.drop()
    },
  }
}

describe.each(storages)('storage.writeTasks on %s', (_, open) => {
  let opened: Opened
  let storage: Storage
  let keyCount = 0
  /** A key no other test uses. */
  const freshKey = () => `key-${++keyCount}`
  const keyed = (name: string, key: string, fingerprint = `fp:${name}`): TaskWrite => ({
    name,
    key,
    fingerprint,
  })
  /** A batch written at `now`, keys from the day before `now` still valid. */
  const write = (items: TaskWrite[], now = T0) => storage.writeTasks(items, now, now - DAY)
  const all = () => storage.listTasks({}, 100_000)

  beforeAll(async () => {
    opened = await open()
    storage = opened.storage
  })

  afterAll(async () => {
    await opened?.close()
  })

  it('creates each item without a key, ids ascending in the order of the batch', async () => {
    const outcomes = await write([
      { name: 'tagged', tag: 'r', fingerprint: '' },
      { name: 'untagged', fingerprint: '' },
    ])
    const first = (outcomes[0] as { task: Task }).task
    expect(outcomes).toEqual([
      { task: { id: first.id, name: 'tagged', tag: 'r' }, replayed: false },
      { task: { id: first.id + 1, name: 'untagged' }, replayed: false },
    ])
    expect(await storage.findTask(first.id + 1)).toEqual({ id: first.id + 1, name: 'untagged' })
  })

  it('pairs every id of a large batch with its own task', async () => {
    const items = Array.from({ length: 500 }, (_, i) =>
      i % 2 === 0
        ? { name: `pair ${i}`, fingerprint: '' }
        : { name: `pair ${i}`, tag: `t${i % 5}`, fingerprint: '' },
    )
    const outcomes = await write(items)
    const tasks = outcomes.map((outcome) => (outcome as { task: Task }).task)
    expect(tasks.map(({ id: _, ...task }) => task)).toEqual(
      items.map(({ fingerprint: _, ...task }) => task),
    )
    const ids = tasks.map((task) => task.id)
    expect(ids).toEqual(ids.map((_, i) => (ids[0] as number) + i))
    for (const task of [tasks[0], tasks[137], tasks[499]] as Task[]) {
      expect(await storage.findTask(task.id)).toEqual(task)
    }
    const listed = await storage.listTasks({ after: (ids[0] as number) - 1 }, 500)
    expect(listed).toEqual(tasks)
  })

  it('replays a key that comes twice in one batch with the same body, creating one task', async () => {
    const key = freshKey()
    const before = (await all()).length
    const [first, second] = await write([keyed('twice', key), keyed('twice', key)])
    expect(first).toEqual({ task: { id: expect.any(Number), name: 'twice' }, replayed: false })
    expect(second).toEqual({ task: (first as { task: Task }).task, replayed: true })
    expect((await all()).length).toBe(before + 1)
  })

  it('answers conflict to a key that comes twice in one batch with another body', async () => {
    const key = freshKey()
    const before = (await all()).length
    const outcomes = await write([
      keyed('first body', key),
      keyed('other body', key),
      keyed('first body', key),
    ])
    const task = (outcomes[0] as { task: Task }).task
    expect(outcomes).toEqual([
      { task: { id: task.id, name: 'first body' }, replayed: false },
      'conflict',
      { task, replayed: true },
    ])
    expect((await all()).length).toBe(before + 1)
  })

  it('replays keys stored by an earlier batch, and answers conflict to another body', async () => {
    const [stored, other] = [freshKey(), freshKey()]
    const [original] = await write([keyed('kept', stored)])
    const task = (original as { task: Task }).task
    const before = (await all()).length
    const outcomes = await write(
      [
        keyed('kept', stored),
        keyed('new', other),
        keyed('changed', stored),
        { name: 'no key', fingerprint: '' },
      ],
      T0 + DAY - 1,
    )
    expect(outcomes).toEqual([
      { task, replayed: true },
      { task: { id: expect.any(Number), name: 'new' }, replayed: false },
      'conflict',
      { task: { id: expect.any(Number), name: 'no key' }, replayed: false },
    ])
    expect((await all()).length).toBe(before + 2)
  })

  it('lets a create take over an expired key; the key then replays the new task', async () => {
    const key = freshKey()
    const [old] = await write([keyed('yesterday', key)])
    // A day and a millisecond later the key has expired: even another body creates.
    const later = T0 + DAY + 1
    const [taken] = await write([keyed('today', key)], later)
    expect(taken).toEqual({ task: { id: expect.any(Number), name: 'today' }, replayed: false })
    const task = (taken as { task: Task }).task
    expect(task.id).toBeGreaterThan((old as { task: Task }).task.id)
    expect(await write([keyed('today', key), keyed('yesterday', key)], later + 1)).toEqual([
      { task, replayed: true },
      'conflict',
    ])
  })

  it('inserts nothing for a batch of replays: the next id is the next one', async () => {
    const key = freshKey()
    const [created] = await write([keyed('once', key)])
    expect(await write([keyed('once', key), keyed('once', key)])).toEqual([
      { ...(created as object), replayed: true },
      { ...(created as object), replayed: true },
    ])
    const [next] = await write([{ name: 'next', fingerprint: '' }])
    expect((next as { task: Task }).task.id).toBe((created as { task: Task }).task.id + 1)
  })

  it('lists what it wrote, in ascending id order', async () => {
    const tasks = await all()
    const ids = tasks.map((task) => task.id)
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b))
    expect(tasks.filter((task) => task.name === 'twice')).toHaveLength(1)
  })

  it('purges the keys created before a time, and only those', async () => {
    const key = freshKey()
    await write([keyed('recent', key)], T0 + 10 * DAY)
    const purged = await storage.purgeIdempotencyKeys(T0 + 10 * DAY)
    expect(purged).toBeGreaterThan(0)
    expect(await storage.purgeIdempotencyKeys(T0 + 10 * DAY)).toBe(0)
    const [replay] = await write([keyed('recent', key)], T0 + 10 * DAY)
    expect(replay).toMatchObject({ replayed: true })
  })
})

// PostgreSQL looks a batch's keys up without a lock, then writes in one statement that
// takes the lock and checks them again; SQLite does both inside its write transaction.
describe.runIf(onPostgres)('a key stored by another instance between look-up and write', () => {
  it('starts the batch over, which then replays the other instance’s task', async () => {
    const testDatabase = await createTestDatabase()
    const mine = await openStorage(testDatabase.config)
    const other = await openStorage(testDatabase.config)
    const pool = new pg.Pool({
      connectionString: (testDatabase.config as { url: string }).url,
      max: 2,
    })
    try {
      const real = postgresStatements(pool, 'tasklane_test_race', 1)
      let lookups = 0
      let writes = 0
      const statements: BatchStatements = {
        async findKeys(keys, notBefore) {
          lookups++
          const found = await real.findKeys(keys, notBefore)
          // The other instance commits the same key right after the first look-up.
          if (lookups === 1) await other.writeTasks([keyed('raced')], T0, T0 - DAY)
          return found
        },
        async insertTasks(tasks, createdAt, notBefore) {
          writes++
          return real.insertTasks(tasks, createdAt, notBefore)
        },
      }
      const [outcome] = await writeBatch(statements, [keyed('raced')], T0, T0 - DAY)
      const [theirs] = await other.writeTasks([keyed('raced')], T0, T0 - DAY)
      expect([lookups, writes]).toEqual([2, 1])
      expect(outcome).toEqual({ ...(theirs as object), replayed: true })
      expect((await mine.listTasks({}, 10)).map((task) => task.name)).toEqual(['raced'])
    } finally {
      await pool.end()
      await mine.close()
      await other.close()
      await testDatabase.drop()
    }
  })

  const keyed = (name: string): TaskWrite => ({ name, key: 'raced-key', fingerprint: `fp:${name}` })
})

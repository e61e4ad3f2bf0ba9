// Idempotency keys within group-commit batches: over 300 lines because each way a key and a
// batch can meet (repeats in one batch, across batches, expiry, conflicts) is a test of its own.
import type { Task } from '@tasklane/contract'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_CALLER } from '../src/domain/rights.js'
import {
  openStorage,
  type Storage,
  type TaskWrite,
  type WriteOutcome,
} from '../src/storage/open-storage.js'
import { postgresStatements } from '../src/storage/postgres/postgres-write-statements.js'
import { preparedQueries, StatementNames } from '../src/storage/postgres/prepared.js'
import { writeBatch } from '../src/storage/write-plan.js'
import type { WriteStatements } from '../src/storage/write-port.js'
import { type OpenedStorage, storages } from './support/storages.js'
import { createTestDatabase, numericInt8, onPostgres } from './support/test-database.js'

// The write algorithm's Idempotency-Keys (writeBatch, storage/write-plan.ts) through the
// Storage port of each backend, and on PostgreSQL its start over when another writer changed
// what a batch read. Keys expire after a day, as in the server; the clock is the test's.
const DAY = 24 * 60 * 60 * 1000
const T0 = Date.parse('2030-01-01T00:00:00Z')

/** A keyed create; the fingerprint stands for its request (method, task and body). */
const keyedCreate = (name: string, key: string, fingerprint = `POST:${name}`): TaskWrite => ({
  caller: LOCAL_CALLER,
  kind: 'create',
  name,
  key,
  fingerprint,
})
const keyedUpdate = (id: number, patch: object, key: string): TaskWrite => ({
  caller: LOCAL_CALLER,
  kind: 'update',
  id,
  patch,
  key,
  fingerprint: `PATCH:${id}:${JSON.stringify(patch)}`,
})
const keyedDelete = (id: number, key: string): TaskWrite => ({
  caller: LOCAL_CALLER,
  kind: 'delete',
  id,
  key,
  fingerprint: `DELETE:${id}`,
})

const taskOf = (outcome: WriteOutcome | undefined) => (outcome as { task: Task }).task as Task
const replayOf = (outcome: WriteOutcome | undefined) => ({ ...outcome, replayed: true })

describe.each(storages)('Idempotency-Keys of storage.write on %s', (_, open) => {
  let opened: OpenedStorage
  let storage: Storage
  let keyCount = 0
  /** A key no other test uses. */
  const freshKey = () => `key-${++keyCount}`
  /** A batch written at `now`, keys from the day before `now` still valid. */
  const write = (items: TaskWrite[], now = T0) => storage.write(items, now, now - DAY)
  const count = async () => (await storage.readPage({}, 100_000)).value.length

  beforeAll(async () => {
    opened = await open()
    storage = opened.storage
  })

  afterAll(async () => {
    await opened?.close()
  })

  it('replays a key that comes twice in one batch with the same request, creating one task', async () => {
    const key = freshKey()
    const before = await count()
    const [first, second] = await write([keyedCreate('twice', key), keyedCreate('twice', key)])
    expect(first).toMatchObject({ result: 'written', replayed: false, changed: true })
    expect(second).toEqual(replayOf(first))
    expect(await count()).toBe(before + 1)
  })

  it('answers key-conflict to a key that comes twice in one batch with another request', async () => {
    const key = freshKey()
    const before = await count()
    const outcomes = await write([
      keyedCreate('first body', key),
      keyedCreate('other body', key),
      keyedCreate('first body', key),
    ])
    expect(outcomes).toEqual([outcomes[0], { result: 'key-conflict' }, replayOf(outcomes[0])])
    expect(taskOf(outcomes[0]).name).toBe('first body')
    expect(await count()).toBe(before + 1)
  })

  it('replays keys stored by an earlier batch, and answers key-conflict to another request', async () => {
    const [stored, other] = [freshKey(), freshKey()]
    const [original] = await write([keyedCreate('kept', stored)])
    const before = await count()
    const outcomes = await write(
      [
        keyedCreate('kept', stored),
        keyedCreate('new', other),
        keyedCreate('changed', stored),
        { caller: LOCAL_CALLER, kind: 'create', name: 'no key', fingerprint: '' },
      ],
      T0 + DAY - 1,
    )
    expect(outcomes[0]).toEqual(replayOf(original))
    expect(taskOf(outcomes[1]).name).toBe('new')
    expect(outcomes[2]).toEqual({ result: 'key-conflict' })
    expect(taskOf(outcomes[3]).name).toBe('no key')
    expect(await count()).toBe(before + 2)
  })

  it('replays a change or a delete as first answered, even after the task changed since', async () => {
    const task = taskOf(
      (await write([{ caller: LOCAL_CALLER, kind: 'create', name: 'keyed', fingerprint: '' }]))[0],
    )
    const [patchKey, deleteKey] = [freshKey(), freshKey()]
    const [changed] = await write([keyedUpdate(task.id, { status: 'done' }, patchKey)])
    await write([
      {
        caller: LOCAL_CALLER,
        kind: 'update',
        id: task.id,
        patch: { name: 'later' },
        fingerprint: '',
      },
    ])
    expect(await write([keyedUpdate(task.id, { status: 'done' }, patchKey)])).toEqual([
      replayOf(changed),
    ])
    const [deleted] = await write([keyedDelete(task.id, deleteKey)])
    expect(deleted).toMatchObject({ result: 'written', task: undefined, changed: true })
    // The task is gone, yet the key still answers as the first time, not 404.
    expect(await write([keyedDelete(task.id, deleteKey)])).toEqual([replayOf(deleted)])
    // One key space: the same key on another route or task is another request.
    expect(await write([keyedDelete(task.id, patchKey), keyedCreate('x', deleteKey)])).toEqual([
      { result: 'key-conflict' },
      { result: 'key-conflict' },
    ])
  })

  it('stores no key for a refused write: the key is free for the next request', async () => {
    const key = freshKey()
    expect(await write([keyedDelete(9_000_000, key)])).toEqual([{ result: 'not-found' }])
    const [created] = await write([keyedCreate('after a 404', key)])
    expect(created).toMatchObject({ result: 'written', replayed: false })
  })

  it('lets a create take over an expired key; the key then replays the new task', async () => {
    const key = freshKey()
    const [old] = await write([keyedCreate('yesterday', key)])
    // A day and a millisecond later the key has expired: even another request creates.
    const later = T0 + DAY + 1
    const [taken] = await write([keyedCreate('today', key)], later)
    expect(taken).toMatchObject({ result: 'written', replayed: false })
    expect(taskOf(taken).id).toBeGreaterThan(taskOf(old).id)
    expect(
      await write([keyedCreate('today', key), keyedCreate('yesterday', key)], later + 1),
    ).toEqual([replayOf(taken), { result: 'key-conflict' }])
  })

  it('writes nothing for a batch of replays: no id and no seq taken', async () => {
    const key = freshKey()
    const [created] = await write([keyedCreate('once', key)])
    const seq = await storage.newestSeq()
    expect(await write([keyedCreate('once', key), keyedCreate('once', key)])).toEqual([
      replayOf(created),
      replayOf(created),
    ])
    expect(await storage.newestSeq()).toBe(seq)
    const [next] = await write([
      { caller: LOCAL_CALLER, kind: 'create', name: 'next', fingerprint: '' },
    ])
    expect(taskOf(next).id).toBe(taskOf(created).id + 1)
    expect(next).toMatchObject({ seq: seq + 1 })
  })

  it('purges the keys created before a time, and only those', async () => {
    const key = freshKey()
    await write([keyedCreate('recent', key)], T0 + 10 * DAY)
    const purged = await storage.purgeIdempotencyKeys(T0 + 10 * DAY, 1_000_000)
    expect(purged).toBeGreaterThan(0)
    expect(await storage.purgeIdempotencyKeys(T0 + 10 * DAY, 1_000_000)).toBe(0)
    const [replay] = await write([keyedCreate('recent', key)], T0 + 10 * DAY)
    expect(replay).toMatchObject({ replayed: true })
  })

  it('keeps at most the newest keys it is told to, whatever their age, the oldest going first', async () => {
    const at = T0 + 20 * DAY
    const keys = Array.from({ length: 6 }, () => freshKey())
    for (const [i, key] of keys.entries()) await write([keyedCreate(`bounded ${i}`, key)], at + i)
    expect(await storage.purgeIdempotencyKeys(at - DAY, 4)).toBeGreaterThanOrEqual(2)
    // The four newest replay; the two oldest are gone: a repeat creates anew.
    for (const [i, key] of keys.entries()) {
      const [outcome] = await write([keyedCreate(`bounded ${i}`, key)], at + 10)
      expect(outcome).toMatchObject({ replayed: i >= 2 })
    }
  })
})

// PostgreSQL reads a batch's keys and rows without a lock, then writes in one statement that
// takes the lock and checks them again (answering STALE, having written nothing, when they
// changed); SQLite does both inside its write transaction, where nothing can change.
describe.runIf(onPostgres)('another instance writing between a batch’s reads and its write', () => {
  let mine: Storage
  let other: Storage
  let pool: pg.Pool
  let drop: () => Promise<void>
  let real: WriteStatements

  beforeAll(async () => {
    const testDatabase = await createTestDatabase()
    drop = () => testDatabase.drop()
    mine = await openStorage(testDatabase.config)
    other = await openStorage(testDatabase.config)
    pool = new pg.Pool({
      connectionString: (testDatabase.config as { url: string }).url,
      max: 2,
      types: numericInt8,
    })
    real = postgresStatements(preparedQueries(pool, new StatementNames()), 'tasklane_test_race', 1)
  })

  afterAll(async () => {
    await pool?.end()
    await mine?.close()
    await other?.close()
    await drop?.()
  })

  /** The real statements, counted, with `meanwhile` run once after the first read. */
  function racing(meanwhile: () => Promise<unknown>) {
    const calls = { reads: 0, apply: 0 }
    const statements: WriteStatements = {
      async read(request) {
        const context = await real.read(request)
        if (++calls.reads === 1) await meanwhile()
        return context
      },
      apply(plan) {
        calls.apply++
        return real.apply(plan)
      },
    }
    return { statements, calls }
  }

  it('starts over when the other stored the same key meanwhile, and then replays its task', async () => {
    const raced = keyedCreate('raced', 'raced-key')
    const { statements, calls } = racing(() => other.write([raced], T0, T0 - DAY))
    const [outcome] = await writeBatch(statements, [raced], T0, T0 - DAY)
    const [theirs] = await other.write([raced], T0, T0 - DAY)
    // Read, write refused (STALE), read again: a replay, nothing left to write.
    expect(calls).toEqual({ reads: 2, apply: 1 })
    expect(outcome).toEqual(theirs)
    expect(outcome).toMatchObject({ replayed: true })
    const { value: listed } = await mine.readPage({}, 10)
    expect(listed.map((task) => task.name)).toEqual(['raced'])
  })

  it('starts over when the other changed a row meanwhile: If-Match then fails, and the change is not lost', async () => {
    const [created] = await mine.write(
      [{ caller: LOCAL_CALLER, kind: 'create', name: 'contested', fingerprint: '' }],
      T0,
      T0 - DAY,
    )
    const task = taskOf(created)
    const { statements, calls } = racing(() =>
      other.write(
        [
          {
            caller: LOCAL_CALLER,
            kind: 'update',
            id: task.id,
            patch: { name: 'theirs' },
            fingerprint: '',
          },
        ],
        T0,
        T0 - DAY,
      ),
    )
    const mineFirst: TaskWrite = {
      caller: LOCAL_CALLER,
      kind: 'update',
      id: task.id,
      patch: { status: 'done' },
      ifMatch: [1],
      fingerprint: '',
    }
    // Planned against version 1, which no longer holds when it is applied.
    expect(await writeBatch(statements, [mineFirst], T0, T0 - DAY)).toEqual([
      { result: 'precondition-failed', version: 2 },
    ])
    expect(calls).toEqual({ reads: 2, apply: 1 })

    // Without If-Match the change applies on top of theirs, as version 3.
    const again = racing(() =>
      other.write(
        [
          {
            caller: LOCAL_CALLER,
            kind: 'update',
            id: task.id,
            patch: { tag: 'theirs' },
            fingerprint: '',
          },
        ],
        T0,
        T0 - DAY,
      ),
    )
    const [outcome] = await writeBatch(
      again.statements,
      [{ ...mineFirst, ifMatch: undefined }],
      T0,
      T0 - DAY,
    )
    expect(again.calls).toEqual({ reads: 2, apply: 2 })
    expect(taskOf(outcome)).toEqual({
      ...task,
      name: 'theirs',
      tag: 'theirs',
      status: 'done',
      completedAt: expect.any(String),
      version: 4,
    })
    expect((await mine.findTask(task.id)).value).toEqual(taskOf(outcome))
  })

  it('starts over when the other deleted the row meanwhile: the change is not found', async () => {
    const [created] = await mine.write(
      [{ caller: LOCAL_CALLER, kind: 'create', name: 'to vanish', fingerprint: '' }],
      T0,
      T0 - DAY,
    )
    const task = taskOf(created)
    const { statements, calls } = racing(() =>
      other.write(
        [{ caller: LOCAL_CALLER, kind: 'delete', id: task.id, fingerprint: '' }],
        T0,
        T0 - DAY,
      ),
    )
    expect(
      await writeBatch(
        statements,
        [
          {
            caller: LOCAL_CALLER,
            kind: 'update',
            id: task.id,
            patch: { name: 'too late' },
            fingerprint: '',
          },
        ],
        T0,
        T0 - DAY,
      ),
    ).toEqual([{ result: 'not-found' }])
    expect(calls).toEqual({ reads: 2, apply: 1 })
  })
})

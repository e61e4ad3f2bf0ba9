import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ListFilter, openStorage, type Storage } from '../src/storage/index.js'
import { toTask } from '../src/storage/write-batch.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'

// Listings near the newest task: SQLite answers them from the newest tasks it keeps in
// memory (storage/recent-tasks.ts), PostgreSQL from the database. Either way every
// listing must equal what the table holds, whoever wrote the tasks: this server, or
// anyone writing to the database behind its back.
describe('listing the newest tasks', () => {
  let testDatabase: TestDatabase
  let storage: Storage
  let created = 0

  /** Every task in the table, as SQL reads it, ascending. */
  const table = () =>
    testDatabase.use(async (db) =>
      (await db.selectFrom('tasks').select(['id', 'name', 'tag']).orderBy('id').execute()).map(
        toTask,
      ),
    )

  /** What the filter must list, computed from the whole table. */
  function expected(all: readonly Task[], filter: ListFilter, limit: number): Task[] {
    const matching = all.filter(
      (task) =>
        task.id > (filter.after ?? 0) &&
        (filter.before === undefined || task.id < filter.before) &&
        (filter.tag === undefined || task.tag === filter.tag),
    )
    return (filter.order === 'desc' ? matching.reverse() : matching).slice(0, limit)
  }

  /** Listings around the newest id, in both orders, with and without a tag and a before. */
  async function expectListingsMatchTable(): Promise<void> {
    const all = await table()
    const newest = all.at(-1)?.id ?? 0
    for (const after of [0, newest - 100, newest - 64, newest - 20, newest - 3, newest]) {
      for (const filter of [
        { after },
        { after, order: 'desc' as const },
        { after, tag: 'even' },
        { after, before: newest - 1, order: 'desc' as const },
      ]) {
        for (const limit of [1, 21, 200]) {
          expect(await storage.listTasks(filter, limit), JSON.stringify({ filter, limit })).toEqual(
            expected(all, filter, limit),
          )
        }
      }
    }
  }

  const create = (count: number) =>
    storage.writeTasks(
      Array.from({ length: count }, () => {
        created++
        return created % 2 === 0
          ? { name: `mine ${created}`, tag: 'even', fingerprint: '' }
          : { name: `mine ${created}`, fingerprint: '' }
      }),
      Date.now(),
      0,
    )

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    storage = await openStorage(testDatabase.config)
  })

  afterAll(async () => {
    await storage?.close()
    await testDatabase?.drop()
  })

  it('lists an empty table, then a few tasks', async () => {
    await expectListingsMatchTable()
    await create(5)
    await expectListingsMatchTable()
  })

  it('lists what this server creates, batch after batch, past the tasks kept in memory', async () => {
    for (const count of [1, 30, 70, 2, 150]) {
      await create(count)
      await expectListingsMatchTable()
    }
  })

  it('lists tasks written behind the server’s back at once, alone or between its own', async () => {
    await testDatabase.insertMany(3, (i) => ({ name: `outside ${i}`, tag: 'even' }))
    await expectListingsMatchTable()
    await create(2)
    await testDatabase.insertMany(1)
    await create(1)
    await expectListingsMatchTable()
    await testDatabase.insertMany(500)
    await expectListingsMatchTable()
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'
import { type Database, openDatabase } from '../src/db/database.js'
import { createTaskWriter } from '../src/tasks/writer.js'
import { createTestDatabase, type TestDatabase } from './helpers.js'

/** A real database whose writeTasks calls (one per commit) are counted. */
async function countingDatabase(testDatabase: TestDatabase) {
  const database = await openDatabase(testDatabase.config)
  const commits: number[] = []
  const counted: Database = {
    ...database,
    writeTasks: (items, now, notBefore) => {
      commits.push(items.length)
      return database.writeTasks(items, now, notBefore)
    },
  }
  return { database, counted, commits }
}

describe('group commit', () => {
  let cleanup: (() => Promise<void>) | undefined
  afterEach(async () => {
    await cleanup?.()
    cleanup = undefined
  })

  async function createConcurrently(maxBatch: number, count: number) {
    const testDatabase = await createTestDatabase()
    const { database, counted, commits } = await countingDatabase(testDatabase)
    cleanup = async () => {
      await database.close()
      await testDatabase.drop()
    }
    const writer = createTaskWriter(counted, { maxBatch })
    const created = await Promise.all(
      Array.from({ length: count }, (_, i) => writer.create({ name: `task ${i}` })),
    )
    await writer.close()
    return { created, commits }
  }

  it('commits creates that arrive together in one transaction, answering each with its task', async () => {
    const { created, commits } = await createConcurrently(512, 40)
    expect(commits.reduce((a, b) => a + b, 0)).toBe(40)
    expect(commits.length).toBeLessThan(40)
    expect(created.map((c) => c.task.name)).toEqual(
      Array.from({ length: 40 }, (_, i) => `task ${i}`),
    )
    const ids = created.map((c) => c.task.id)
    expect(new Set(ids).size).toBe(40)
    expect([...ids].sort((a, b) => a - b)).toEqual(ids)
  })

  it('commits each create on its own when the batch size is 1 (group commit off)', async () => {
    const { commits } = await createConcurrently(1, 10)
    expect(commits).toEqual(Array(10).fill(1))
  })

  it('is on by default and switched off by GROUP_COMMIT=off or --group-commit off', () => {
    expect(loadConfig({}, []).groupCommit).toBe(true)
    expect(loadConfig({ GROUP_COMMIT: 'off' }, []).groupCommit).toBe(false)
    expect(loadConfig({ GROUP_COMMIT: '0' }, []).groupCommit).toBe(false)
    expect(loadConfig({ GROUP_COMMIT: 'off' }, ['--group-commit', 'on']).groupCommit).toBe(true)
    expect(() => loadConfig({ GROUP_COMMIT: 'maybe' }, [])).toThrow(
      'GROUP_COMMIT "maybe" is neither on nor off.',
    )
  })
})

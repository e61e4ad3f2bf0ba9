import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_CALLER } from '../src/domain/rights.js'
import { openStorage, StorageOpenError } from '../src/storage/open-storage.js'
import { connectionMode } from '../src/storage/postgres/connection-mode.js'
import { createTestDatabase, type TestDatabase, throughPooler } from './support/test-database.js'

// Whether the server's connections are sessions of their own: detected at start-up
// (DATABASE_PREPARED_STATEMENTS=auto), or as the setting says.

describe.runIf(throughPooler)('connectionMode', () => {
  let testDatabase: TestDatabase

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
  })

  afterAll(async () => {
    await testDatabase?.drop()
  })

  it('detects a session straight to PostgreSQL and a transaction pooler through PgBouncer', async () => {
    expect(await connectionMode(testDatabase.directUrl as string, 'auto', 5_000)).toBe('session')
    expect(await connectionMode(testDatabase.url, 'auto', 5_000)).toBe('transaction')
  })

  it('takes on and off as said, without connecting', async () => {
    const nowhere = 'postgres://nobody@127.0.0.1:1/none'
    expect(await connectionMode(nowhere, 'on', 5_000)).toBe('session')
    expect(await connectionMode(nowhere, 'off', 5_000)).toBe('transaction')
  })
})

describe.runIf(throughPooler)('opening PostgreSQL storage through a pooler', () => {
  let testDatabase: TestDatabase
  let other: TestDatabase

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    other = await createTestDatabase()
  })

  afterAll(async () => {
    await testDatabase?.drop()
    await other?.drop()
  })

  const config = (changes: object) => ({ ...testDatabase.config, ...changes }) as never

  it('refuses a DATABASE_DIRECT_URL that reaches other tasks than DATABASE_URL, naming both', async () => {
    const opened = openStorage(config({ directUrl: other.directUrl }))
    await expect(opened).rejects.toThrow(StorageOpenError)
    await expect(opened).rejects.toThrow(
      `DATABASE_DIRECT_URL reaches test.${other.schema} but DATABASE_URL test.${testDatabase.schema}`,
    )
  })

  it('cannot start with DATABASE_PREPARED_STATEMENTS=on: PgBouncer refuses session settings', async () => {
    await expect(openStorage(config({ preparedStatements: 'on' }))).rejects.toThrow(
      /unsupported startup parameter/,
    )
  })

  it('opens, writes and reads with auto and with off', async () => {
    for (const preparedStatements of ['auto', 'off']) {
      const storage = await openStorage(config({ preparedStatements }))
      try {
        const [written] = await storage.write(
          [
            {
              caller: LOCAL_CALLER,
              kind: 'create',
              name: preparedStatements,
              fingerprint: preparedStatements,
            },
          ],
          Date.now(),
          0,
        )
        expect(written).toMatchObject({ result: 'written', task: { name: preparedStatements } })
        const { value } = await storage.findTask((written as { task: { id: number } }).task.id)
        expect(value?.name).toBe(preparedStatements)
      } finally {
        await storage.close()
      }
    }
  })
})

// Several server processes on one PostgreSQL database: over 300 lines because each
// cross-instance guarantee (ids, feed, read-your-writes, lost updates) is a test of its own.
import { randomBytes } from 'node:crypto'
import type { Task } from '@tasklane/contract'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStorage } from '../src/storage/open-storage.js'
import { expectError } from './support/http.js'
import { killAll, type ServerProcess, startServerProcess } from './support/processes.js'
import {
  adminQuery,
  createTestDatabase,
  onPostgres,
  POSTGRES_URL,
  type TestDatabase,
} from './support/test-database.js'

type Instance = ServerProcess

/** POSTs a task to one instance; the Task on 201, else the status. */
async function create(
  instance: Instance,
  name: string,
  key?: string,
): Promise<{ status: number; task?: Task }> {
  const response = await fetch(`${instance.url}/task`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify({ name }),
  })
  if (response.status !== 201) {
    await response.body?.cancel()
    return { status: response.status }
  }
  return { status: 201, task: (await response.json()) as Task }
}

async function list(instance: Instance, query = ''): Promise<Task[]> {
  const response = await fetch(`${instance.url}/tasks${query}`)
  expect(response.status).toBe(200)
  return (await response.json()) as Task[]
}

/** Strictly increasing, hence also free of duplicates. */
function expectIncreasing(ids: number[]) {
  for (let i = 1; i < ids.length; i++) {
    if ((ids[i] as number) <= (ids[i - 1] as number)) {
      throw new Error(`ids not strictly increasing at ${i}: ${ids[i - 1]} then ${ids[i]}`)
    }
  }
}

afterAll(killAll)

/**
 * Three server processes started together on a new, empty schema: they race to migrate
 * it. Each pool holds `poolSize` connections.
 */
async function threeInstances(poolSize: string) {
  const testDatabase = await createTestDatabase({ kind: 'postgres' })
  const instances = await Promise.all(
    [1, 2, 3].map(() =>
      startServerProcess({ DATABASE_URL: testDatabase.url, DATABASE_POOL_SIZE: poolSize }),
    ),
  )
  return { testDatabase, instances }
}

async function stopThree(
  instances: Instance[] | undefined,
  testDatabase: TestDatabase | undefined,
) {
  await Promise.all((instances ?? []).map((instance) => instance.stop()))
  await testDatabase?.drop()
}

describe.runIf(onPostgres)('migrations when several instances start at once', () => {
  it('runs each migration exactly once, whichever instance gets there first', async () => {
    // Three rounds on empty schemas: three pools race for the migration lock each time.
    for (let round = 0; round < 3; round++) {
      const testDatabase = await createTestDatabase()
      try {
        const storages = await Promise.all([1, 2, 3].map(() => openStorage(testDatabase.config)))
        const { rows } = await testDatabase.use((db) =>
          sql<{ name: string }>`select name from kysely_migration order by name`.execute(db),
        )
        expect(rows.map((row) => row.name)).toEqual([
          '0001-create-tasks',
          '0002-create-idempotency-keys',
          '0003-limit-task-ids',
          '0004-create-write-probe',
          '0005-write-function',
          '0006-task-lifecycle',
          '0007-lists-and-people',
          '0008-planning',
          '0009-history-and-webhooks',
          '0010-feed-planning-views',
          '0011-ids-checked-on-insert',
          '0012-search-index-on-tasks',
        ])
        await Promise.all(storages.map((storage) => storage.close()))
      } finally {
        await testDatabase.drop()
      }
    }
  })
})

describe.runIf(onPostgres)('three server processes on one PostgreSQL schema', () => {
  let testDatabase: TestDatabase
  let instances: Instance[]

  beforeAll(async () => {
    ;({ testDatabase, instances } = await threeInstances('4'))
  }, 30_000)
  afterAll(() => stopThree(instances, testDatabase))

  it('started every instance, and migrated the schema once', async () => {
    expect(new Set(instances.map((instance) => instance.url)).size).toBe(3)
    for (const instance of instances) {
      expect((await fetch(`${instance.url}/health/ready`)).status).toBe(200)
    }
    const rows = await adminQuery<{ count: string }>(
      `select count(*) from ${testDatabase.schema}.kysely_migration`,
    )
    expect(rows).toEqual([{ count: '12' }])
  })

  it('loses no acknowledged create, duplicates no id and orders ids by commit', async () => {
    // 12 clients, each creating tasks one after another and moving to the next
    // instance each time: a task acknowledged before the next is sent must get the
    // smaller id, whichever instances handled the two.
    const CLIENTS = 12
    const EACH = 25
    const acknowledged: Task[] = []
    const failures: number[] = []
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        let previous = 0
        for (let i = 0; i < EACH; i++) {
          const instance = instances[(client + i) % 3] as Instance
          const { status, task } = await create(instance, `client ${client} task ${i}`)
          if (!task) {
            failures.push(status)
            continue
          }
          expect(task.id).toBeGreaterThan(previous)
          previous = task.id
          acknowledged.push(task)
        }
      }),
    )
    expect(failures).toEqual([])
    expect(acknowledged).toHaveLength(CLIENTS * EACH)
    expect(new Set(acknowledged.map((task) => task.id)).size).toBe(acknowledged.length)

    const lists = await Promise.all(instances.map((instance) => list(instance)))
    for (const tasks of lists) {
      expectIncreasing(tasks.map((task) => task.id))
      expect(tasks).toEqual(lists[0])
    }
    const listed = new Map((lists[0] as Task[]).map((task) => [task.id, task]))
    for (const task of acknowledged) expect(listed.get(task.id)).toEqual(task)
  }, 60_000)

  it('replays an Idempotency-Key sent to another instance', async () => {
    const key = `cross-${randomBytes(8).toString('hex')}`
    const first = await create(instances[0] as Instance, 'once only', key)
    expect(first.status).toBe(201)
    const replays = await Promise.all(
      instances.slice(1).map((instance) => create(instance, 'once only', key)),
    )
    for (const replay of replays) expect(replay).toEqual(first)
    const named = (await list(instances[2] as Instance)).filter((t) => t.name === 'once only')
    expect(named).toEqual([first.task])
  })

  it('lets a reader paging with `after` see every acknowledged task exactly once', async () => {
    const start = (await list(instances[0] as Instance)).at(-1)?.id ?? 0
    const acknowledged = new Set<number>()
    let writing = true
    const writers = Promise.all(
      instances.flatMap((instance, n) =>
        [0, 1, 2, 3].map(async (w) => {
          for (let i = 0; i < 30; i++) {
            const { task } = await create(instance, `writer ${n}.${w} task ${i}`)
            if (task) acknowledged.add(task.id)
          }
        }),
      ),
    ).finally(() => {
      writing = false
    })

    // Small pages from every instance in turn while the writers run; an empty page is
    // only the end once the writers have finished.
    const seen: number[] = []
    let after = start
    for (let page = 0; ; page++) {
      const done = !writing
      const tasks = await list(instances[page % 3] as Instance, `?limit=7&after=${after}`)
      seen.push(...tasks.map((task) => task.id))
      if (tasks.length > 0) after = (tasks.at(-1) as Task).id
      else if (done) break
    }
    await writers

    expectIncreasing(seen)
    expect(acknowledged.size).toBe(360)
    const missed = [...acknowledged].filter((id) => !seen.includes(id))
    expect(missed).toEqual([])
    expect(seen.length).toBe(acknowledged.size)
  }, 60_000)
})

describe.runIf(onPostgres)('an instance killed (SIGKILL) in the middle of writes', () => {
  let testDatabase: TestDatabase
  let instances: Instance[]

  beforeAll(async () => {
    ;({ testDatabase, instances } = await threeInstances('3'))
  }, 30_000)
  afterAll(() => stopThree(instances, testDatabase))

  it('stalls nobody (its write lock dies with it) and loses no acknowledged task', async () => {
    const [victim, ...survivors] = instances as [Instance, Instance, Instance]
    const acknowledged: Task[] = []
    let killed = false
    const writers = instances.flatMap((instance, n) =>
      [0, 1, 2, 3].map(async (w) => {
        for (let i = 0; i < 40; i++) {
          if (killed && instance === victim) return
          const result = await create(instance, `writer ${n}.${w} task ${i}`).catch(() => ({
            status: 0,
            task: undefined,
          }))
          if (result.task) acknowledged.push(result.task)
        }
      }),
    )
    // Kill it while its writes are in full flow: some of its transactions hold the lock.
    const fromVictim = () => acknowledged.filter((task) => task.name.startsWith('writer 0.'))
    while (fromVictim().length < 10) await new Promise((resolve) => setTimeout(resolve, 5))
    killed = true
    victim.child.kill('SIGKILL')
    const started = Date.now()
    await Promise.all(writers)
    // The survivors finished their 2 × 4 × 40 creates without waiting on a dead lock holder.
    expect(Date.now() - started).toBeLessThan(15_000)
    const afterKill = await Promise.all(survivors.map((instance) => create(instance, 'after')))
    expect(afterKill.map((result) => result.status)).toEqual([201, 201])
    expect(fromVictim().length).toBeLessThan(160)

    const listed = await list(survivors[0])
    expectIncreasing(listed.map((task) => task.id))
    const ids = new Set(listed.map((task) => task.id))
    expect(acknowledged.filter((task) => !ids.has(task.id))).toEqual([])
    expect(await list(survivors[1])).toEqual(listed)
  }, 60_000)
})

describe.runIf(onPostgres)('when the PostgreSQL database goes away and comes back', () => {
  const database = `tl_down_${randomBytes(6).toString('hex')}`
  let instance: Instance

  const terminateConnections = () =>
    adminQuery(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    )

  async function waitUntilReady(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while ((await fetch(`${instance.url}/health/ready`)).status !== 200) {
      if (Date.now() > deadline) throw new Error('not ready again in time')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  beforeAll(async () => {
    // A database of its own, so that refusing connections affects nothing else.
    await adminQuery(`create database ${database}`)
    const url = new URL(POSTGRES_URL)
    url.pathname = `/${database}`
    instance = await startServerProcess({ DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: '3' })
  }, 30_000)

  afterAll(async () => {
    await instance?.stop()
    await adminQuery(`alter database ${database} allow_connections true`).catch(() => {})
    await adminQuery(`drop database if exists ${database} with (force)`)
  })

  it('keeps serving after every connection of the server is terminated', async () => {
    expect((await create(instance, 'before the cut')).status).toBe(201)
    await terminateConnections()
    await waitUntilReady()
    const after = await create(instance, 'after the cut')
    expect(after.status).toBe(201)
    expect((await list(instance)).map((task) => task.name)).toEqual([
      'before the cut',
      'after the cut',
    ])
  })

  it('answers 503 while the database refuses connections, and resumes without a restart', async () => {
    const pid = instance.child.pid
    await adminQuery(`alter database ${database} allow_connections false`)
    await terminateConnections()

    const unavailable = 'The database is not reachable; retry the request shortly.'
    expect((await fetch(`${instance.url}/health/live`)).status).toBe(200)
    for (const response of [
      await fetch(`${instance.url}/health/ready`),
      await fetch(`${instance.url}/task`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'during the outage' }),
      }),
      await fetch(`${instance.url}/tasks?limit=5`),
      await fetch(`${instance.url}/tasks`),
      await fetch(`${instance.url}/tasks/1`),
    ]) {
      const text = await response.clone().text()
      await expectError(response, 503, unavailable)
      expect(response.headers.get('retry-after')).toBe('1')
      expect(text).not.toMatch(/select|insert|postgres|\.js|at \w/i)
    }

    await adminQuery(`alter database ${database} allow_connections true`)
    await waitUntilReady()
    expect((await create(instance, 'after the outage')).status).toBe(201)
    expect((await list(instance)).map((task) => task.name)).toEqual([
      'before the cut',
      'after the cut',
      'after the outage',
    ])
    // The same process throughout.
    expect(instance.child.pid).toBe(pid)
    expect(instance.child.exitCode).toBeNull()
  }, 30_000)
})

import type { Task } from '@tasklane/contract'
import { type Kysely, sql } from 'kysely'
import { type CompiledShape, compileShape, parametersOf, type RunQuery } from './compiled-query.js'
import type { Schema } from './schema.js'
import type { ListFilter } from './storage.js'
import { type TaskRow, toTask } from './write-batch.js'

type Db = Kysely<Schema>

/** Every value a read may take; each shape uses some of them. */
interface ReadValues {
  id: number
  after: number
  before: number
  tag: string
  limit: number
  offset: number
}

/**
 * The reads of the Storage port, the same on every backend. Each query shape (a listing
 * with or without `before`, `tag`, descending…) is built and compiled by Kysely once, on
 * its first use; later requests only bind their values to the backend's prepared statement.
 */
export function createReads(db: Db, run: RunQuery) {
  const shapes = new Map<string, CompiledShape<ReadValues>>()
  function shape(key: string, build: Parameters<typeof compileShape<ReadValues>>[0]) {
    let compiled = shapes.get(key)
    if (compiled === undefined) {
      compiled = compileShape(build)
      shapes.set(key, compiled)
    }
    return compiled
  }
  const execute = <Row>(compiled: CompiledShape<ReadValues>, values: Partial<ReadValues>) =>
    run<Row>(compiled.sql, parametersOf(compiled, values as ReadValues))

  /** The shape of a listing with this filter: which conditions it has, and its order. */
  function filtered(
    filter: ListFilter,
    value: <K extends keyof ReadValues>(name: K) => ReadValues[K],
  ) {
    let query = db.selectFrom('tasks').where('id', '>', value('after'))
    if (filter.before !== undefined) query = query.where('id', '<', value('before'))
    if (filter.tag !== undefined) query = query.where('tag', '=', value('tag'))
    return query.orderBy('id', filter.order === 'desc' ? 'desc' : 'asc')
  }
  const filterKey = (filter: ListFilter) =>
    `${filter.before !== undefined}:${filter.tag !== undefined}:${filter.order === 'desc'}`
  const filterValues = (filter: ListFilter) => ({
    after: filter.after ?? 0,
    before: filter.before,
    tag: filter.tag,
  })

  const findTaskShape = shape('find', (value) =>
    db.selectFrom('tasks').select(['id', 'name', 'tag']).where('id', '=', value('id')),
  )
  const newestIdShape = shape('newest', () =>
    db.selectFrom('tasks').select((eb) => eb.fn.max('id').as('id')),
  )
  const countAfterShape = shape('count-after', (value) =>
    db
      .selectFrom('tasks')
      .select((eb) => [eb.fn.countAll().as('count'), eb.fn.max('id').as('newest')])
      .where('id', '>', value('after')),
  )

  return {
    /** The task with this id, or undefined. */
    async findTask(id: number): Promise<Task | undefined> {
      const [row] = await execute<TaskRow>(findTaskShape, { id })
      return row && toTask(row)
    },

    /** Up to `limit` tasks matching the filter, in the filter's order. */
    async listTasks(filter: ListFilter, limit: number): Promise<Task[]> {
      const compiled = shape(`list:${filterKey(filter)}`, (value) =>
        filtered(filter, value).select(['id', 'name', 'tag']).limit(value('limit')),
      )
      const rows = await execute<TaskRow>(compiled, { ...filterValues(filter), limit })
      return rows.map(toTask)
    },

    /** The ids of the `n`-th task (1-based) matching the filter and of up to `count - 1` after it. */
    async taskIdsFrom(filter: ListFilter, n: number, count: number): Promise<number[]> {
      const compiled = shape(`ids:${filterKey(filter)}`, (value) =>
        filtered(filter, value).select('id').limit(value('limit')).offset(value('offset')),
      )
      const rows = await execute<{ id: number }>(compiled, {
        ...filterValues(filter),
        limit: count,
        offset: n - 1,
      })
      return rows.map((row) => Number(row.id))
    },

    /** How many tasks have an id above `after`, and the largest id (0 when there is none). */
    async countAfter(after: number): Promise<{ count: number; newest: number }> {
      const [row] = await execute<{ count: number | string; newest: number | null }>(
        countAfterShape,
        { after },
      )
      return { count: Number(row?.count ?? 0), newest: Number(row?.newest ?? 0) }
    },

    /** The id of the newest task, 0 when there is none. */
    async newestId(): Promise<number> {
      const [row] = await execute<{ id: number | null }>(newestIdShape, {})
      return Number(row?.id ?? 0)
    },
  }
}

/** The reads, each a function of the backend's prepared statements. */
export type Reads = ReturnType<typeof createReads>

/** Deletes keys created before `before`; returns how many went. */
export async function purgeIdempotencyKeys(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', before)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** True when the database answers a trivial query. */
export async function ping(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db)
    return true
  } catch {
    return false
  }
}

import type { Task } from '@tasklane/contract'
import { type Kysely, sql } from 'kysely'
import type { Schema } from './schema.js'
import type { ListFilter } from './storage.js'
import { toTask } from './write-batch.js'

type Db = Kysely<Schema>

// The reads of the Storage port, as plain functions on a Kysely handle; the same on
// every backend.

/** The task with this id, or undefined. */
export async function findTask(db: Db, id: number): Promise<Task | undefined> {
  const row = await db
    .selectFrom('tasks')
    .select(['id', 'name', 'tag'])
    .where('id', '=', id)
    .executeTakeFirst()
  return row && toTask(row)
}

function filtered(db: Db, filter: ListFilter) {
  let query = db.selectFrom('tasks').where('id', '>', filter.after ?? 0)
  if (filter.before !== undefined) query = query.where('id', '<', filter.before)
  if (filter.tag !== undefined) query = query.where('tag', '=', filter.tag)
  return query.orderBy('id', filter.order === 'desc' ? 'desc' : 'asc')
}

/** Up to `limit` tasks matching the filter, in the filter's order. */
export async function listTasks(db: Db, filter: ListFilter, limit: number): Promise<Task[]> {
  const rows = await filtered(db, filter).select(['id', 'name', 'tag']).limit(limit).execute()
  return rows.map(toTask)
}

/** The ids of the `n`-th task (1-based) matching the filter and of up to `count - 1` after it. */
export async function taskIdsFrom(
  db: Db,
  filter: ListFilter,
  n: number,
  count: number,
): Promise<number[]> {
  const rows = await filtered(db, filter)
    .select('id')
    .limit(count)
    .offset(n - 1)
    .execute()
  return rows.map((row) => Number(row.id))
}

/** The id of the newest task, 0 when there is none. */
export async function newestId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst()
  return Number(row?.id ?? 0)
}

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

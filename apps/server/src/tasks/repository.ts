import type { Task } from '@tasklane/contract'
import type { Kysely } from 'kysely'
import type { TaskWrite, WriteOutcome } from '../db/database.js'
import type { Schema } from '../db/schema.js'

type Db = Kysely<Schema>

/** Filters of a listing: ids above `after`, optionally only one tag. */
export interface ListFilter {
  readonly after?: number | undefined
  readonly tag?: string | undefined
}

/** A row as the API returns it: no `tag` key when the task has none. */
function toTask(row: { id: number; name: string; tag: string | null }): Task {
  // Number(): PostgreSQL's bigint arrives as a string; ids never exceed 2^53-1.
  const id = Number(row.id)
  return row.tag === null ? { id, name: row.name } : { id, name: row.name, tag: row.tag }
}

/** Deletes keys created before `before`; returns how many went. */
export async function purgeIdempotencyKeys(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', before)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

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
  if (filter.tag !== undefined) query = query.where('tag', '=', filter.tag)
  return query
}

/** Up to `limit` tasks matching the filter, in ascending id order. */
export async function listTasks(db: Db, filter: ListFilter, limit: number): Promise<Task[]> {
  const rows = await filtered(db, filter)
    .select(['id', 'name', 'tag'])
    .orderBy('id')
    .limit(limit)
    .execute()
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
    .orderBy('id')
    .limit(count)
    .offset(n - 1)
    .execute()
  return rows.map((row) => Number(row.id))
}

/**
 * Every task matching the filter (at most `limit`), as a series of short queries of
 * `chunk` rows each. No cursor stays open between chunks, so a slow reader never holds
 * the connection that other requests need, and stopping early releases nothing but
 * this generator.
 */
export async function* streamTasks(
  db: Db,
  filter: ListFilter,
  limit = Number.POSITIVE_INFINITY,
  chunk = 1000,
): AsyncGenerator<Task[]> {
  let after = filter.after ?? 0
  let remaining = limit
  while (remaining > 0) {
    const size = Math.min(chunk, remaining)
    const tasks = await listTasks(db, { ...filter, after }, size)
    if (tasks.length > 0) yield tasks
    if (tasks.length < size) return
    remaining -= tasks.length
    after = (tasks.at(-1) as Task).id
  }
}

/**
 * A batch of creates inside one write transaction, in four statements whatever its size:
 * a fresh key with the same body replays its task, with another body it clashes; every
 * other create is inserted, and its key stored beside it. The caller holds the write
 * lock, so the batch's ids are consecutive and in the order of `items`.
 * (db/sqlite-worker.mjs does the same on prepared statements.)
 */
export async function applyWrites(
  trx: Db,
  items: TaskWrite[],
  now: number,
  notBefore: number,
): Promise<WriteOutcome[]> {
  const keys = items.flatMap((item) => (item.key === undefined ? [] : [item.key]))
  const known = new Map<string, { fingerprint: string; taskId: number }>()
  if (keys.length > 0) {
    const rows = await trx
      .selectFrom('idempotency_keys')
      .select(['key', 'fingerprint', 'task_id'])
      .where('key', 'in', keys)
      .where('created_at', '>=', notBefore)
      .execute()
    for (const row of rows) {
      known.set(row.key, { fingerprint: row.fingerprint, taskId: Number(row.task_id) })
    }
  }
  const replayIds = items.flatMap((item) => {
    const key = item.key === undefined ? undefined : known.get(item.key)
    return key && key.fingerprint === item.fingerprint ? [key.taskId] : []
  })
  const replayed = new Map<number, Task>()
  if (replayIds.length > 0) {
    const rows = await trx
      .selectFrom('tasks')
      .select(['id', 'name', 'tag'])
      .where('id', 'in', replayIds)
      .execute()
    for (const row of rows) replayed.set(Number(row.id), toTask(row))
  }

  const fresh = items.filter((item) => item.key === undefined || !known.has(item.key))
  const inserted =
    fresh.length === 0
      ? []
      : (
          await trx
            .insertInto('tasks')
            .values(fresh.map((item) => ({ name: item.name, tag: item.tag ?? null })))
            .returning(['id', 'name', 'tag'])
            .execute()
        )
          .map(toTask)
          .sort((a, b) => a.id - b.id)
  const created = new Map<TaskWrite, Task>()
  for (const [i, item] of fresh.entries()) {
    const task = inserted[i]
    if (task?.name !== item.name) throw new Error('Inserted rows do not match the batch.')
    created.set(item, task)
  }
  const newKeys = fresh.flatMap((item) =>
    item.key === undefined
      ? []
      : [
          {
            key: item.key,
            fingerprint: item.fingerprint,
            task_id: (created.get(item) as Task).id,
            created_at: now,
          },
        ],
  )
  if (newKeys.length > 0) {
    // An expired key is taken over by its new task.
    await trx
      .insertInto('idempotency_keys')
      .values(newKeys)
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet((eb) => ({
          fingerprint: eb.ref('excluded.fingerprint'),
          task_id: eb.ref('excluded.task_id'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .execute()
  }

  return items.map((item): WriteOutcome => {
    const task = created.get(item)
    if (task) return { task, replayed: false }
    const key = known.get(item.key as string)
    const original = key && key.fingerprint === item.fingerprint && replayed.get(key.taskId)
    return original ? { task: original, replayed: true } : 'conflict'
  })
}

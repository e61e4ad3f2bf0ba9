import type { NewTask, Task } from '@tasklane/contract'
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

/** Stores a new task and returns it with its assigned id. */
export async function insertTask(db: Db, task: NewTask): Promise<Task> {
  const row = await db
    .insertInto('tasks')
    .values({ name: task.name, tag: task.tag ?? null })
    .returning(['id', 'name', 'tag'])
    .executeTakeFirstOrThrow()
  return toTask(row)
}

/** The task and body digest an idempotency key stands for, if it is known and fresh. */
export async function findIdempotencyKey(db: Db, key: string, notBefore: number) {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'task_id'])
    .where('key', '=', key)
    .where('created_at', '>=', notBefore)
    .executeTakeFirst()
  return row && { fingerprint: row.fingerprint, taskId: Number(row.task_id) }
}

/** Records (or, for an expired key, re-records) that `key` created task `taskId`. */
export async function saveIdempotencyKey(
  db: Db,
  row: { key: string; fingerprint: string; taskId: number; createdAt: number },
): Promise<void> {
  const values = {
    key: row.key,
    fingerprint: row.fingerprint,
    task_id: row.taskId,
    created_at: row.createdAt,
  }
  await db
    .insertInto('idempotency_keys')
    .values(values)
    .onConflict((conflict) => conflict.column('key').doUpdateSet(values))
    .execute()
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

/** The id of the `n`-th task (1-based) matching the filter, or undefined. */
export async function nthTaskId(
  db: Db,
  filter: ListFilter,
  n: number,
): Promise<number | undefined> {
  const row = await filtered(db, filter)
    .select('id')
    .orderBy('id')
    .limit(1)
    .offset(n - 1)
    .executeTakeFirst()
  return row && Number(row.id)
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
 * The steps of a batch of creates inside one write transaction: a fresh key with the
 * same body replays its task, with another body it clashes; otherwise the task is
 * inserted and its key stored beside it. (db/sqlite-worker.mjs does the same on
 * prepared statements.)
 */
export async function applyWrites(
  trx: Db,
  items: TaskWrite[],
  now: number,
  notBefore: number,
): Promise<WriteOutcome[]> {
  const outcomes: WriteOutcome[] = []
  for (const item of items) {
    const known =
      item.key === undefined ? undefined : await findIdempotencyKey(trx, item.key, notBefore)
    if (known) {
      const task = known.fingerprint === item.fingerprint && (await findTask(trx, known.taskId))
      outcomes.push(task ? { task, replayed: true } : 'conflict')
      continue
    }
    const task = await insertTask(trx, { name: item.name, tag: item.tag })
    if (item.key !== undefined) {
      await saveIdempotencyKey(trx, {
        key: item.key,
        fingerprint: item.fingerprint,
        taskId: task.id,
        createdAt: now,
      })
    }
    outcomes.push({ task, replayed: false })
  }
  return outcomes
}

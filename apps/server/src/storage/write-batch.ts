import type { Task } from '@tasklane/contract'
import type { TaskWrite, WriteOutcome } from './storage.js'

/** An Idempotency-Key as stored: which task it created, and the digest of that body. */
export interface KeyRecord {
  readonly key: string
  readonly fingerprint: string
  readonly taskId: number
}

/** A stored key with the task it created (the task a repeat replays). */
export interface StoredKey {
  readonly key: string
  readonly fingerprint: string
  readonly task: TaskRow
}

/** A task as its row holds it: `tag` is null when the task has none. */
export interface TaskRow {
  readonly id: number
  readonly name: string
  readonly tag: string | null
}

type Awaitable<T> = T | Promise<T>

/** A task to insert, with the Idempotency-Key (and body digest) to store beside it, if any. */
export interface NewTaskRow {
  readonly name: string
  readonly tag: string | null
  readonly key?: string | undefined
  readonly fingerprint: string
}

/**
 * What `insertTasks` answers when a key it was to store is stored already (by another
 * writer since `findKeys` looked): nothing was written, and the batch starts over.
 */
export const KEYS_TAKEN = 'keys-taken'

/**
 * The two steps a batch needs. SQLite's run synchronously on the writer thread, inside the
 * write transaction its backend has begun, so a key cannot be taken between them.
 * PostgreSQL's are one statement each: `findKeys` reads without any lock, and
 * `insertTasks` takes the ordering lock, checks that none of the keys was stored since,
 * and inserts, all in one round trip.
 */
export interface BatchStatements {
  /** Those of `keys` stored at or after `notBefore`, each with the task it created. */
  findKeys(keys: readonly string[], notBefore: number): Awaitable<readonly StoredKey[]>
  /**
   * Inserts the tasks, storing each key with its task's id (taking over an expired record
   * of the same key); resolves with their ids, the i-th id for the i-th task, or with
   * KEYS_TAKEN, having written nothing, when a key is stored at or after `notBefore` already.
   */
  insertTasks(
    tasks: readonly NewTaskRow[],
    createdAt: number,
    notBefore: number,
  ): Awaitable<readonly number[] | typeof KEYS_TAKEN>
}

/** How often a batch starts over because other writers stored its keys meanwhile. */
const MAX_ATTEMPTS = 10

/** A row as the API returns it: no `tag` key when the task has none. */
export function toTask(row: TaskRow): Task {
  // Number(): a driver may hand a bigint id over as a string; ids never exceed 2^53-1.
  const id = Number(row.id)
  return row.tag === null ? { id, name: row.name } : { id, name: row.name, tag: row.tag }
}

/**
 * The write algorithm, the same on every backend: each create of a batch either replays
 * the task its Idempotency-Key created (same body), clashes with it (another body), or is
 * inserted, its key stored beside it in the same transaction. Whatever the batch's size,
 * that is at most two statements (one when no create has a key). A key that occurs
 * twice in one batch is treated as its first occurrence's repeat. Should another writer
 * store one of the batch's keys between the two statements, the batch starts over and
 * finds it.
 */
export async function writeBatch(
  statements: BatchStatements,
  items: readonly TaskWrite[],
  now: number,
  notBefore: number,
): Promise<WriteOutcome[]> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const outcomes = await attemptBatch(statements, items, now, notBefore)
    if (outcomes !== KEYS_TAKEN) return outcomes
  }
  throw new Error(`Other writers stored this batch's keys ${MAX_ATTEMPTS} times over.`)
}

async function attemptBatch(
  statements: BatchStatements,
  items: readonly TaskWrite[],
  now: number,
  notBefore: number,
): Promise<WriteOutcome[] | typeof KEYS_TAKEN> {
  const keys = [...new Set(items.flatMap((item) => (item.key === undefined ? [] : [item.key])))]
  const known = new Map<string, KeyRecord>()
  const tasks = new Map<number, Task>()
  if (keys.length > 0) {
    for (const { key, fingerprint, task } of await statements.findKeys(keys, notBefore)) {
      const original = toTask(task)
      known.set(key, { key, fingerprint, taskId: original.id })
      tasks.set(original.id, original)
    }
  }

  // A create is fresh unless its key is stored, or taken by an earlier create of the batch.
  const claimed = new Set<string>()
  const fresh = items.filter((item) => {
    if (item.key === undefined) return true
    if (known.has(item.key) || claimed.has(item.key)) return false
    claimed.add(item.key)
    return true
  })
  const ids =
    fresh.length === 0
      ? []
      : await statements.insertTasks(
          fresh.map(({ name, tag, key, fingerprint }) => ({
            name,
            tag: tag ?? null,
            key,
            fingerprint,
          })),
          now,
          notBefore,
        )
  if (ids === KEYS_TAKEN) return KEYS_TAKEN
  if (ids.length !== fresh.length || ids.some((id) => !Number.isSafeInteger(id))) {
    throw new Error(`Inserting ${fresh.length} tasks did not give one id each.`)
  }
  const created = new Map<TaskWrite, Task>()
  for (const [i, item] of fresh.entries()) {
    const id = ids[i] as number
    const task = toTask({ id, name: item.name, tag: item.tag ?? null })
    created.set(item, task)
    tasks.set(id, task)
    if (item.key !== undefined) {
      known.set(item.key, { key: item.key, fingerprint: item.fingerprint, taskId: id })
    }
  }

  return items.map((item): WriteOutcome => {
    const task = created.get(item)
    if (task) return { task, replayed: false }
    const record = known.get(item.key as string) as KeyRecord
    if (record.fingerprint !== item.fingerprint) return 'conflict'
    return { task: tasks.get(record.taskId) as Task, replayed: true }
  })
}

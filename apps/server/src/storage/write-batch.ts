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

/**
 * The three statements a batch needs, inside one write transaction that the backend has
 * begun (and, on PostgreSQL, under the ordering lock). SQLite's run synchronously on the
 * writer thread; PostgreSQL's are queries on the transaction's connection.
 */
export interface BatchStatements {
  /** Those of `keys` stored at or after `notBefore`, each with the task it created. */
  findKeys(keys: readonly string[], notBefore: number): Awaitable<readonly StoredKey[]>
  /** Inserts the tasks; resolves with their ids, the i-th id for the i-th task. */
  insertTasks(tasks: readonly { name: string; tag: string | null }[]): Awaitable<readonly number[]>
  /** Stores the keys, each taking over an expired record of the same key. */
  saveKeys(keys: readonly KeyRecord[], createdAt: number): Awaitable<void>
}

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
 * that is at most three statements (one when no create has a key). A key that occurs
 * twice in one batch is treated as its first occurrence's repeat.
 */
export async function writeBatch(
  statements: BatchStatements,
  items: readonly TaskWrite[],
  now: number,
  notBefore: number,
): Promise<WriteOutcome[]> {
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
      : await statements.insertTasks(fresh.map(({ name, tag }) => ({ name, tag: tag ?? null })))
  if (ids.length !== fresh.length || ids.some((id) => !Number.isSafeInteger(id))) {
    throw new Error(`Inserting ${fresh.length} tasks did not give one id each.`)
  }
  const created = new Map<TaskWrite, Task>()
  const newKeys: KeyRecord[] = []
  for (const [i, item] of fresh.entries()) {
    const id = ids[i] as number
    const task = toTask({ id, name: item.name, tag: item.tag ?? null })
    created.set(item, task)
    tasks.set(id, task)
    if (item.key !== undefined) {
      const record = { key: item.key, fingerprint: item.fingerprint, taskId: id }
      known.set(item.key, record)
      newKeys.push(record)
    }
  }
  if (newKeys.length > 0) await statements.saveKeys(newKeys, now)

  return items.map((item): WriteOutcome => {
    const task = created.get(item)
    if (task) return { task, replayed: false }
    const record = known.get(item.key as string) as KeyRecord
    if (record.fingerprint !== item.fingerprint) return 'conflict'
    return { task: tasks.get(record.taskId) as Task, replayed: true }
  })
}

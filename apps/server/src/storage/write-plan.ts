import type { Task, TaskPatch } from '@tasklane/contract'
import type { IfMatch, TaskWrite, WriteOutcome } from './storage.js'
import type { RowStatus } from './tables.js'
import { toTask } from './task-row.js'
import {
  type Applied,
  type PlannedInsert,
  type PlannedKey,
  type PlannedRewrite,
  type PlannedSeq,
  STALE,
  type StoredKey,
  type WriteStatements,
} from './write-port.js'

/** How often a batch starts over because another writer changed what it read meanwhile. */
const MAX_ATTEMPTS = 10

/**
 * The write algorithm, the same on every backend: the batch's writes are applied in order
 * to the rows they touch, each write seeing those before it. A write whose key is stored
 * replays its response (same request) or clashes (another request); otherwise a create
 * inserts, a change or delete of a missing or deleted task is not found, one whose If-Match
 * fails leaves the task alone, a patch equal to the task changes nothing. Each change gets
 * the next seq; each key of a write that succeeded is stored with its response, in the same
 * transaction. A key that occurs twice in a batch: the second is the first's repeat.
 */
export async function writeBatch(
  statements: WriteStatements,
  items: readonly TaskWrite[],
  now: number,
  notBefore: number,
): Promise<WriteOutcome[]> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const outcomes = await attemptBatch(statements, items, now, notBefore)
    if (outcomes !== STALE) return outcomes
  }
  throw new Error(`Other writers changed what this batch read ${MAX_ATTEMPTS} times over.`)
}

/** A row as the batch sees it, with the changes of the batch so far. */
interface RowState {
  readonly id: number
  readonly expectedSeq: number
  readonly createdAt: number
  name: string
  tag: string | null
  status: RowStatus
  version: number
  updatedAt: number
  seq: PlannedSeq
  prev?: { seq: PlannedSeq; tag: string | null; status: RowStatus }
}

/** A written outcome whose seq (and, for a create, id) is known once the plan is applied. */
interface Pending {
  readonly seq: PlannedSeq
  readonly task: Omit<Task, 'id'> | undefined
  readonly id: number | { readonly insert: number }
  readonly replayed: boolean
  readonly changed: boolean
}

function matches(ifMatch: IfMatch | undefined, version: number): boolean {
  return ifMatch === undefined || ifMatch === '*' || ifMatch.includes(version)
}

/** The row's task as answered, without its id. */
function answered(row: RowState): Omit<Task, 'id'> {
  const { id: _id, ...task } = toTask({
    id: row.id,
    name: row.name,
    tag: row.tag,
    status: row.status,
    version: row.version,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  })
  return task
}

const replayOf = (stored: StoredKey): Pending => ({
  seq: { abs: stored.seq },
  id: stored.taskId,
  task: stored.response === null ? undefined : JSON.parse(stored.response),
  replayed: true,
  changed: true,
})

/** Applies `patch` to `row`; false when it changes nothing. */
function patched(row: RowState, patch: TaskPatch): boolean {
  const name = patch.name ?? row.name
  const tag = patch.tag === undefined ? row.tag : patch.tag
  const status = patch.status ?? row.status
  if (name === row.name && tag === row.tag && status === row.status) return false
  row.name = name
  row.tag = tag
  row.status = status
  return true
}

async function attemptBatch(
  statements: WriteStatements,
  items: readonly TaskWrite[],
  now: number,
  notBefore: number,
): Promise<WriteOutcome[] | typeof STALE> {
  const keys = [...new Set(items.flatMap((item) => (item.key === undefined ? [] : [item.key])))]
  const ids = [...new Set(items.flatMap((item) => (item.kind === 'create' ? [] : [item.id])))]
  const [stored, rows] = await Promise.all([
    keys.length === 0 ? [] : statements.findKeys(keys, notBefore),
    ids.length === 0 ? [] : statements.findRows(ids),
  ])
  /** Each key's request digest and response: stored ones, then those the batch stores. */
  const known = new Map<string, { fingerprint: string; pending: Pending }>()
  for (const key of stored)
    known.set(key.key, { fingerprint: key.fingerprint, pending: replayOf(key) })
  const state = new Map<number, RowState>()
  for (const row of rows) {
    const id = Number(row.id)
    state.set(id, {
      id,
      expectedSeq: Number(row.seq),
      createdAt: Number(row.created_at),
      name: row.name,
      tag: row.tag,
      status: row.status,
      version: Number(row.version),
      updatedAt: Number(row.updated_at),
      seq: { abs: Number(row.seq) },
    })
  }

  const inserts: PlannedInsert[] = []
  const plannedKeys: PlannedKey[] = []
  let changes = 0
  const outcomes: (Pending | Exclude<WriteOutcome, { result: 'written' }>)[] = items.map((item) => {
    const key = item.key === undefined ? undefined : known.get(item.key)
    if (key !== undefined) {
      return key.fingerprint === item.fingerprint
        ? { ...key.pending, replayed: true }
        : { result: 'key-conflict' }
    }
    let pending: Pending
    if (item.kind === 'create') {
      const off = ++changes
      const status = item.status ?? 'open'
      const tag = item.tag ?? null
      inserts.push({ name: item.name, tag, status, off })
      const { id: _id, ...task } = toTask({
        id: 0,
        name: item.name,
        tag,
        status,
        version: 1,
        created_at: now,
        updated_at: now,
      })
      pending = {
        seq: { off },
        id: { insert: inserts.length - 1 },
        task,
        replayed: false,
        changed: true,
      }
    } else {
      const row = state.get(item.id)
      if (row === undefined || row.status === 'deleted') return { result: 'not-found' }
      if (!matches(item.ifMatch, row.version)) {
        return { result: 'precondition-failed', version: row.version }
      }
      const before = { seq: row.seq, tag: row.tag, status: row.status }
      const changed = item.kind === 'delete' || patched(row, item.patch)
      if (changed) {
        row.prev = before
        row.seq = { off: ++changes }
        row.updatedAt = now
        if (item.kind === 'delete') {
          // The row stays as the feed's tombstone: no name, no tag, the version it had.
          row.status = 'deleted'
          row.name = ''
          row.tag = null
        } else {
          row.version++
        }
      }
      const task = item.kind === 'delete' ? undefined : answered(row)
      pending = { seq: row.seq, id: row.id, task, replayed: false, changed }
    }
    if (item.key !== undefined) {
      known.set(item.key, { fingerprint: item.fingerprint, pending })
      plannedKeys.push({
        key: item.key,
        fingerprint: item.fingerprint,
        task: typeof pending.id === 'number' ? { id: pending.id } : pending.id,
        seq: pending.seq,
        response: pending.task === undefined ? null : JSON.stringify(pending.task),
      })
    }
    return pending
  })

  const rewrites: PlannedRewrite[] = []
  for (const row of state.values()) {
    if (row.prev === undefined || !('off' in row.seq)) continue
    rewrites.push({
      id: row.id,
      expectedSeq: row.expectedSeq,
      name: row.name,
      tag: row.tag,
      status: row.status,
      version: row.version,
      off: row.seq.off,
      prevSeq: row.prev.seq,
      prevTag: row.prev.tag,
      prevStatus: row.prev.status,
    })
  }
  let applied: Applied = { base: 0, ids: [] }
  if (inserts.length > 0 || rewrites.length > 0 || plannedKeys.length > 0) {
    const result = await statements.apply({
      now,
      notBefore,
      inserts,
      rewrites,
      keys: plannedKeys,
      changes,
    })
    if (result === STALE) return STALE
    if (
      result.ids.length !== inserts.length ||
      result.ids.some((id) => !Number.isSafeInteger(id))
    ) {
      throw new Error(`Inserting ${inserts.length} tasks did not give one id each.`)
    }
    applied = result
  }
  return outcomes.map((outcome): WriteOutcome => {
    if (!('seq' in outcome)) return outcome
    const seq = 'abs' in outcome.seq ? outcome.seq.abs : applied.base + outcome.seq.off
    const id =
      typeof outcome.id === 'number' ? outcome.id : (applied.ids[outcome.id.insert] as number)
    return {
      result: 'written',
      task: outcome.task && ({ id, ...outcome.task } as Task),
      seq,
      replayed: outcome.replayed,
      changed: outcome.changed,
    }
  })
}

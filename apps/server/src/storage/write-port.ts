// What a backend implements for the one write algorithm (write-plan.ts): the reads a batch
// starts from and the one statement that writes its plan. sqlite/write-statements.ts and
// postgres/write-statements.ts implement it.
import type { RowStatus } from './tables.js'
import type { TaskRow } from './task-row.js'

type Awaitable<T> = T | Promise<T>

/** An Idempotency-Key as stored, with the response its request got. */
export interface StoredKey {
  readonly key: string
  readonly fingerprint: string
  readonly taskId: number
  readonly seq: number
  /** The answered task without its id, as JSON; null for a delete. */
  readonly response: string | null
}

/** A task's row as a write reads it first: deleted ones too, and the seq of its latest change. */
export interface CurrentRow extends TaskRow {
  readonly seq: number
}

/** A seq of the plan: known already (`abs`), or the n-th change of the plan (`off`, from 1). */
export type PlannedSeq = { readonly abs: number } | { readonly off: number }

/** A task the plan creates: version 1, created and updated at the plan's `now`. */
export interface PlannedInsert {
  readonly name: string
  readonly tag: string | null
  readonly status: 'open' | 'done'
  /** Its change: the `off`-th of the plan. */
  readonly off: number
}

/** An existing row the plan rewrites, in its final state, with what its latest change replaced. */
export interface PlannedRewrite {
  readonly id: number
  /** The seq the row had when it was read: the plan holds only if it still has it. */
  readonly expectedSeq: number
  readonly name: string
  readonly tag: string | null
  readonly status: RowStatus
  readonly version: number
  readonly off: number
  readonly prevSeq: PlannedSeq
  readonly prevTag: string | null
  readonly prevStatus: RowStatus
}

/** A key the plan stores, with the response it got. */
export interface PlannedKey {
  readonly key: string
  readonly fingerprint: string
  /** The task: an existing id, or the `insert`-th task the plan creates (from 0). */
  readonly task: { readonly id: number } | { readonly insert: number }
  readonly seq: PlannedSeq
  readonly response: string | null
}

/** What one transaction writes: the changes numbered 1..`changes` after the newest seq. */
export interface WritePlan {
  readonly now: number
  readonly notBefore: number
  readonly inserts: readonly PlannedInsert[]
  readonly rewrites: readonly PlannedRewrite[]
  readonly keys: readonly PlannedKey[]
  readonly changes: number
}

/** A plan written: the seq just before its first change, and the ids of its inserts in order. */
export interface Applied {
  readonly base: number
  readonly ids: readonly number[]
}

/** What `apply` answers when a key or a row changed since it was read: nothing was written. */
export const STALE = 'stale'

/**
 * What a backend brings to the write algorithm. SQLite's run synchronously on the writer
 * thread inside the transaction its backend has begun, so nothing can change between them.
 * PostgreSQL's reads take no lock, and `apply` (one statement) takes the ordering lock,
 * checks that no key was stored and no row changed since, and writes.
 */
export interface WriteStatements {
  /** Those of `keys` stored at or after `notBefore`. */
  findKeys(keys: readonly string[], notBefore: number): Awaitable<readonly StoredKey[]>
  /** The rows of these ids that exist, deleted ones included. */
  findRows(ids: readonly number[]): Awaitable<readonly CurrentRow[]>
  /** Writes the plan in one transaction, or answers STALE having written nothing. */
  apply(plan: WritePlan): Awaitable<Applied | typeof STALE>
}

// What a backend implements for the one write algorithm (write-plan.ts): the read a batch
// starts from and the one statement that writes its plan. sqlite/sqlite-batch-writer.ts and
// postgres/postgres-write-statements.ts implement it.
import type { Role } from '../domain/rights.js'
import type { RowStatus } from './tables.js'
import type { TaskRow } from './task-row.js'

type Awaitable<T> = T | Promise<T>

/** An Idempotency-Key as stored, with the response its request got. */
export interface StoredKey {
  readonly key: string
  readonly fingerprint: string
  /** The task (or list) the request wrote. */
  readonly targetId: number
  readonly seq: number
  /** The answered task without its id, as JSON; null for a delete. */
  readonly response: string | null
}

/** A task's row as a write reads it first: deleted ones too, and the seq of its latest change. */
export interface CurrentRow extends TaskRow {
  readonly seq: number
}

/**
 * A stretch of a list's manual order a batch needs: the live tasks just before and after a
 * task (`around`), or at the top or bottom of the list; `size` of them on each side.
 */
export interface OrderWindow {
  /** The list; `first`, the lowest-id live list; ignored `around` a task (its own list). */
  readonly listId: number | 'first'
  readonly at: { readonly around: number } | 'top' | 'bottom'
  readonly size: number
}

/** A live task's place in its list's manual order, as a window read it. */
export interface Placed {
  readonly id: number
  readonly listId: number
  readonly position: string
}

/** What a batch must read before it can plan. */
export interface BatchRead {
  /** Idempotency-Keys (scoped to their principals) the batch carries. */
  readonly keys: readonly string[]
  /** Keys stored before this have expired. */
  readonly notBefore: number
  /** Tasks the batch changes or deletes. */
  readonly ids: readonly number[]
  /** Principals (not admins) whose roles decide what the batch may do. */
  readonly principals: readonly string[]
  /** Lists whose existence the batch depends on (an admin's targets). */
  readonly lists: readonly number[]
  /** The stretches of manual orders the batch places tasks in. */
  readonly windows: readonly OrderWindow[]
}

/** A principal's role in a list, as stored. */
export interface Membership {
  readonly principal: string
  readonly listId: number
  readonly role: Role
}

/** What the batch read, in one snapshot of the database. */
export interface BatchContext {
  readonly keys: readonly StoredKey[]
  readonly rows: readonly CurrentRow[]
  readonly members: readonly Membership[]
  /** Those of the asked lists that exist (live), ascending. */
  readonly lists: readonly number[]
  /** The lowest id of a live list: where an admin's create goes when it names none. */
  readonly firstList: number | undefined
  /** The seq of the newest change to anyone's rights: the plan holds only while it stands. */
  readonly accessSeq: number
  /** The windows read, each with the list it was read in (`first` and `around` resolved). */
  readonly windows: readonly Omit<OrderWindow, 'size'>[]
  /** The tasks of the windows read (around a task, that task too), with their places. */
  readonly placed: readonly Placed[]
  /** The `order_seq` of each list a window was read in: the plan holds only while it stands. */
  readonly orders: readonly { readonly listId: number; readonly orderSeq: number }[]
}

/** A seq of the plan: known already (`abs`), or the n-th change of the plan (`off`, from 1). */
export type PlannedSeq = { readonly abs: number } | { readonly off: number }

/** What planning adds to a task's stored fields: its notes, due, priority, completion, place. */
export interface PlanningFields {
  readonly notes: string | null
  readonly due: string | null
  readonly due_day: string | null
  readonly due_at: number | null
  readonly due_key: number | null
  readonly priority: number
  readonly completed_at: number | null
  readonly position: string
  readonly search: string
}

/** A task's stored fields, as the write algorithm sets them (named as the table's columns). */
export interface TaskFields extends PlanningFields {
  readonly name: string
  readonly tag: string | null
  readonly status: RowStatus
  readonly list_id: number
  readonly version: number
  readonly updated_by: string
}

/** A task the plan creates: version 1, created and updated at the plan's `now` by `created_by`. */
export interface PlannedInsert extends PlanningFields {
  readonly name: string
  readonly tag: string | null
  readonly status: 'open' | 'done'
  readonly list_id: number
  readonly created_by: string
  /** Its change: the `off`-th of the plan. */
  readonly off: number
}

/** An existing row the plan rewrites, in its final state, with what its latest change replaced. */
export interface PlannedRewrite extends TaskFields {
  readonly id: number
  /** The seq the row had when it was read: the plan holds only if it still has it. */
  readonly expectedSeq: number
  readonly off: number
  readonly prevSeq: PlannedSeq
  readonly prevTag: string | null
  readonly prevStatus: RowStatus
  readonly prevListId: number
  readonly prevPriority: number
  readonly prevDue: string | null
}

/** One change the plan keeps in the history: the `off`-th, of a task (existing or inserted). */
export interface PlannedHistory {
  readonly off: number
  readonly task: { readonly id: number } | { readonly insert: number }
  readonly listId: number
  readonly actor: string
  readonly type: 'created' | 'updated' | 'moved' | 'deleted'
  /** The fields it changed, `{ field: { from, to } }`, as JSON. */
  readonly changes: string
  /** The task after it, without its id, as JSON; for a delete, `{ "version" }`. */
  readonly snapshot: string
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
  /** The access seq the plan was made at (BatchContext). */
  readonly accessSeq: number
  readonly inserts: readonly PlannedInsert[]
  readonly rewrites: readonly PlannedRewrite[]
  readonly keys: readonly PlannedKey[]
  /** Every change of the plan, kept in the history in the same transaction. */
  readonly history: readonly PlannedHistory[]
  /** The lists the plan places tasks in, with the `order_seq` it read (set to its last seq). */
  readonly orders: readonly { readonly listId: number; readonly orderSeq: number }[]
  readonly changes: number
}

/** A plan written: the seq just before its first change, and the ids of its inserts in order. */
export interface Applied {
  readonly base: number
  readonly ids: readonly number[]
}

/** What `apply` answers when a key, a row or anyone's rights changed since the read. */
export const STALE = 'stale'

/**
 * What a backend brings to the write algorithm. SQLite's run synchronously on the writer
 * thread inside the transaction its backend has begun, so nothing can change between them.
 * PostgreSQL's read takes no lock, and `apply` (one statement) takes the ordering lock,
 * checks that no key was stored, no row changed and no right changed since, and writes.
 */
export interface WriteStatements {
  read(request: BatchRead): Awaitable<BatchContext>
  /** Writes the plan in one transaction, or answers STALE having written nothing. */
  apply(plan: WritePlan): Awaitable<Applied | typeof STALE>
}

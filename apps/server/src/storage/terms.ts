import type { Task, TaskPatch } from '@tasklane/contract'
import { ADMIN_PRINCIPAL, type Caller, LOCAL_PRINCIPAL, type Role } from '../domain/rights.js'

/** Where tasks are stored: an SQLite file (or `:memory:`), or a PostgreSQL database. */
export type StorageConfig =
  | { readonly kind: 'sqlite'; readonly filename: string }
  | {
      readonly kind: 'postgres'
      readonly url: string
      /** Connections this instance may hold for requests (and as many again for streamed listings). */
      readonly poolSize: number
      /**
       * A URL that reaches PostgreSQL directly, not through a pooler, for the sessions the
       * server holds: the change feed's LISTEN and the migrations. Without it, both use `url`;
       * when `url` is not a session of its own, other instances' commits are then polled for.
       */
      readonly directUrl?: string | undefined
      /**
       * Whether `url`'s connections are sessions of their own: `on` (named prepared statements,
       * timeouts set once per connection, LISTEN), `off` (a transaction-mode pooler: nothing
       * outlives a transaction), `auto` (detected when the storage opens).
       */
      readonly preparedStatements: 'auto' | 'on' | 'off'
      /**
       * How often the newest seq is read (ms): besides commit notifications (default 1000), or
       * instead of them when no connection can LISTEN (default 250).
       */
      readonly commitCheckMs?: number
      /**
       * Longest wait for a connection, a lock or a statement (ms): past it the call fails
       * with DatabaseUnavailableError rather than hang with the database.
       */
      readonly timeoutMs: number
    }

/** If-Match as a write checks it: `*` (any existing task), or the versions its ETags name. */
export type IfMatch = '*' | readonly number[]

/** What every write of a batch carries: who asks, its Idempotency-Key, the digest of its request. */
interface Keyed {
  /** Who makes the write: its principal is recorded, its rights are checked. */
  readonly caller: Caller
  /** The Idempotency-Key, scoped to the caller's principal (see keyOf). */
  readonly key?: string | undefined
  /** Digest of the method, task and body; a repeated key replays only when it matches. */
  readonly fingerprint: string
}

/** One write of a batch: a create, a change (JSON Merge Patch) or a delete. */
export type TaskWrite =
  | (Keyed & {
      readonly kind: 'create'
      readonly name: string
      readonly tag?: string | undefined
      readonly status?: 'open' | 'done' | undefined
      /** The list to create it in; undefined: the lowest-id list the caller can edit. */
      readonly listId?: number | undefined
      readonly notes?: string | undefined
      readonly due?: string | undefined
      readonly priority?: number | undefined
    })
  | (Keyed & {
      readonly kind: 'update'
      readonly id: number
      readonly patch: TaskPatch
      readonly ifMatch?: IfMatch | undefined
      /** The change happens only if the task's version is none of these (or, `*`, never). */
      readonly ifNoneMatch?: IfMatch | undefined
    })
  | (Keyed & {
      readonly kind: 'delete'
      readonly id: number
      readonly ifMatch?: IfMatch | undefined
      readonly ifNoneMatch?: IfMatch | undefined
    })
  | (Keyed & {
      readonly kind: 'move'
      readonly id: number
      /** Just before or after another task of the (target) list, or at one of its ends. */
      readonly to: { readonly before: number } | { readonly after: number } | 'top' | 'bottom'
      /** The list to move it into; undefined: its own. */
      readonly listId?: number | undefined
      readonly ifMatch?: IfMatch | undefined
      readonly ifNoneMatch?: IfMatch | undefined
    })

/**
 * What a write came to. `written`: committed (or, `replayed`, the response its key got
 * before), with the task as answered (none for a delete) and the seq of the change;
 * `changed` is false for a patch that changed nothing. Otherwise: no such task (or one the
 * caller cannot read), no such list (or one it cannot read), a list it reads but may not
 * change (`role` is what it has there; `readOnly`, its credential allows no change), no
 * list to create in, If-Match not met (with the current version), or a key used before
 * with another request.
 */
export type WriteOutcome =
  | {
      readonly result: 'written'
      readonly task: Task | undefined
      readonly seq: number
      readonly replayed: boolean
      readonly changed: boolean
    }
  | { readonly result: 'not-found' }
  | { readonly result: 'list-not-found'; readonly listId: number }
  | {
      readonly result: 'forbidden'
      readonly listId: number
      readonly role: Role
      readonly readOnly: boolean
    }
  | { readonly result: 'no-list' }
  /** A move names a task that is not in the (target) list, or the moved task itself. */
  | { readonly result: 'bad-reference'; readonly field: 'before' | 'after'; readonly id: number }
  | { readonly result: 'precondition-failed'; readonly version: number }
  | { readonly result: 'key-conflict' }

/**
 * An Idempotency-Key as stored: scoped to the principal that sent it, so that one
 * principal's key never replays another's response. Keys and principals are visible ASCII
 * without spaces, so `<principal> <key>` is unambiguous. The operator's two principals,
 * `local` (open mode) and `admin` (API_TOKEN), keep the bare key, as every key was stored
 * before principals existed: a server switched from one mode to the other still replays.
 * Only as admins: a JWT whose `sub` is "admin", or a write token for that principal, is
 * another caller named like the operator, and its keys are its own.
 */
export function keyOf(caller: Caller, key: string): string {
  const { principal, access } = caller
  const operator =
    access === 'admin' && (principal === LOCAL_PRINCIPAL || principal === ADMIN_PRINCIPAL)
  return operator ? key : `${principal} ${key}`
}

/** Which tasks a listing returns: ids between `after` and `before`, optionally filtered. */
export interface ListFilter {
  /** Only ids above this. */
  readonly after?: number | undefined
  /** Only ids below this. */
  readonly before?: number | undefined
  readonly tag?: string | undefined
  readonly status?: 'open' | 'done' | undefined
  /** Only tasks of these lists (ascending ids); undefined: of every list. */
  readonly lists?: readonly number[] | undefined
  /** `asc` (the default): oldest first; `desc`: newest first. */
  readonly order?: 'asc' | 'desc' | undefined
  /** What the tasks are ordered by (`id`, the default, pages with `after`/`before`). */
  readonly sort?: SortName | undefined
  /** Another sort's keyset: only tasks past this point in its order. */
  readonly from?: Keyset | undefined
  /** Only tasks of this priority. */
  readonly priority?: number | undefined
  /** Only tasks due in this range. */
  readonly due?: DueRange | undefined
  /** Only open tasks due before this point. */
  readonly overdue?: Overdue | undefined
  /** Only tasks whose search text holds each of these words at the start of one of its words. */
  readonly words?: readonly string[] | undefined
}

/** The orders a listing may take. */
export type SortName = 'id' | 'due' | 'priority' | 'position' | 'updated'

/**
 * A task's place in a sort besides its id: its due sort key (null: undated), its priority,
 * its update time (ms), or its list and position.
 */
export type SortKey = number | null | readonly [listId: number, position: string]

/** A point in a sort's order: the key and id of the last task a page held. */
export interface Keyset {
  readonly key: SortKey
  readonly id: number
}

/**
 * A due range as the database compares it: days as text (inclusive), moments as instants
 * (`fromAt` inclusive, `toAt` exclusive: the starts of the days in the caller's zone), and
 * bounds of the due sort key that every matching task lies within, so an index can narrow.
 */
export interface DueRange {
  readonly fromDay?: string | undefined
  readonly toDay?: string | undefined
  readonly fromAt?: number | undefined
  readonly toAt?: number | undefined
  readonly keyFrom?: number | undefined
  readonly keyTo?: number | undefined
}

/**
 * Overdue as the database compares it: a day before `today`, a moment before `now`, and a
 * due sort key below `keyTo` (every overdue task's key is).
 */
export interface Overdue {
  readonly today: string
  readonly now: number
  readonly keyTo: number
}

/** Where the change sequence stands: the newest seq, and that of the newest change to rights. */
export interface Sequence {
  readonly seq: number
  /** The seq of the newest change to anyone's rights (memberships, lists deleted, tokens). */
  readonly accessSeq: number
}

/**
 * A read and where the sequence stood for it: every change up to `seq` is reflected and
 * none after, and the rights it was read under held if `accessSeq` is theirs.
 */
export interface AtSeq<T> extends Sequence {
  readonly value: T
}

/** One task's latest change, as the change feed reads it. */
export interface Change {
  readonly seq: number
  readonly id: number
  readonly version: number
  /** The list the task is in after the change (a deleted task: the one it was in). */
  readonly listId: number
  /** The task after the change; undefined when the change deleted it. */
  readonly task: Task | undefined
  /** The seq of the change before this one; 0 when this change created the task. */
  readonly prevSeq: number
  /** The seq of the change that created the task; 0 when unknown (older than lists). */
  readonly createdSeq: number
  /** The task's tag, status and list before this change (undefined when it created the task). */
  readonly prev:
    | {
        readonly tag: string | undefined
        readonly status: 'open' | 'done'
        readonly listId: number
        /**
         * Its priority and due before this change; undefined when not known (a change made
         * before they were kept).
         */
        readonly planning?:
          | { readonly priority: number; readonly due: string | undefined }
          | undefined
      }
    | undefined
}

/**
 * A consistent snapshot of the tasks for a listing that is read in several queries (a
 * streamed list): every query sees the database as of `seq`. Close it when done.
 */
export interface Snapshot extends Sequence {
  /** Up to `limit` live tasks matching the filter, in its order, as of `seq`. */
  readTasks(filter: ListFilter, limit: number): Promise<Task[]>
  /** Up to `limit` ids of live tasks matching the filter, in its order, as of `seq`. */
  readIds(filter: ListFilter, limit: number): Promise<number[]>
  close(): Promise<void>
}

/** What a snapshot's reads answer once it is closed. */
export const closed = (): Promise<never> => Promise.reject(new Error('The snapshot is closed.'))

import type { Task } from '@tasklane/contract'
import type { StorageEvent } from './events.js'

/** Where tasks are stored: an SQLite file (or `:memory:`), or a PostgreSQL database. */
export type StorageConfig =
  | { readonly kind: 'sqlite'; readonly filename: string }
  | {
      readonly kind: 'postgres'
      readonly url: string
      /** Connections this instance may hold. */
      readonly poolSize: number
      /** How often the newest id is read besides commit notifications (ms; default 1000). */
      readonly commitCheckMs?: number
      /**
       * Longest wait for a connection, a lock or a statement (ms; default 5000): past it
       * the call fails with DatabaseUnavailableError rather than hang with the database.
       */
      readonly timeoutMs?: number
    }

/** One create of a batch: the task, and its Idempotency-Key with a digest of the body. */
export interface TaskWrite {
  readonly name: string
  readonly tag?: string | undefined
  readonly key?: string | undefined
  /** Digest of the body; a repeated key replays only when it matches. */
  readonly fingerprint: string
}

/**
 * What a create came to: a new task, the task its key created before (`replayed`), or a
 * key already used with another body.
 */
export type WriteOutcome = { task: Task; replayed: boolean } | 'conflict'

/** Which tasks a listing returns: ids between `after` and `before`, optionally only one tag. */
export interface ListFilter {
  /** Only ids above this. */
  readonly after?: number | undefined
  /** Only ids below this. */
  readonly before?: number | undefined
  readonly tag?: string | undefined
  /** `asc` (the default): oldest first; `desc`: newest first. */
  readonly order?: 'asc' | 'desc' | undefined
}

/**
 * The one port to stored tasks, whatever the backend. Failures that mean the database
 * cannot serve right now reject with DatabaseUnavailableError; anything else is a fault.
 */
export interface Storage {
  readonly kind: StorageConfig['kind']
  /** The task with this id, or undefined. */
  findTask(id: number): Promise<Task | undefined>
  /** Up to `limit` tasks matching the filter, in the filter's order. */
  listTasks(filter: ListFilter, limit: number): Promise<Task[]>
  /** The ids of the `n`-th task (1-based) matching the filter and of up to `count - 1` after it. */
  taskIdsFrom(filter: ListFilter, n: number, count: number): Promise<number[]>
  /** The id of the newest committed task, 0 when there is none; every smaller id is final. */
  newestId(): Promise<number>
  /**
   * Calls `listener` with a new high-water id whenever the tasks up to it are known to be
   * committed, by this server or (PostgreSQL) any other on the database; returns the
   * function that stops the calls. It carries ids, never tasks: one call may stand for
   * several commits, and a late one still tells all, so readers fetch the tasks themselves.
   */
  onCommitted(listener: (newestId: number) => void): () => void
  /**
   * Commits a batch of creates in one transaction (one fsync), checking and storing each
   * Idempotency-Key with its task; keys created before `notBefore` have expired. Ids are
   * assigned in commit order, across every server on the database (a batch's tasks commit
   * together). Resolves with one outcome per item, in order.
   */
  writeTasks(items: readonly TaskWrite[], now: number, notBefore: number): Promise<WriteOutcome[]>
  /** Deletes Idempotency-Keys created before `before`; resolves with how many went. */
  purgeIdempotencyKeys(before: number): Promise<number>
  /** True when the database answers a read. */
  ping(): Promise<boolean>
  /**
   * True when writes commit: a write succeeded within the last second, or else a probe
   * write (one row of its own) does now. False on a full disk, a dead writer thread, a
   * database file removed while open, a database that does not answer in time.
   */
  writable(): Promise<boolean>
  /** Calls `listener` with what goes wrong beyond any one request; returns the function that stops the calls. */
  onEvent(listener: (event: StorageEvent) => void): () => void
  /** Lets the writes already sent finish, then closes every connection. */
  close(): Promise<void>
}

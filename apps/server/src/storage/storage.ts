import type { Task } from '@tasklane/contract'
import type { AccessStorage } from './access-port.js'
import type { StorageEvent } from './events.js'
import type { TaskHistory } from './history-rows.js'
import type {
  AtSeq,
  Change,
  ListFilter,
  Sequence,
  Snapshot,
  StorageConfig,
  TaskWrite,
  WriteOutcome,
} from './terms.js'
import type { WebhookStorage } from './webhook-port.js'

export * from './terms.js'

/**
 * The one port to stored tasks, whatever the backend. Failures that mean the database
 * cannot serve right now reject with DatabaseUnavailableError; anything else is a fault.
 * Every change (create, update, delete) gets the next number of one sequence per database,
 * `seq`, in commit order across every server instance on it.
 */
export interface Storage {
  /** Which database it is: the descriptors it may hold differ (app.ts). */
  readonly kind: StorageConfig['kind']
  /**
   * How many batches a group-commit writer may have on their way to `write` at once. SQLite's
   * writer thread commits every batch that has arrived when a commit begins, so batches are
   * best sent as they form; PostgreSQL commits each call on its own, and two in flight keep
   * it busy without splitting the queue into small commits.
   */
  readonly batchesInFlight: number
  /**
   * How many snapshots (streamed listings) may be open at once: each holds a PostgreSQL
   * connection of its own for as long as it streams; on SQLite, no bound of its own.
   */
  readonly maxSnapshots: number
  /** File descriptors it holds at most (descriptors.ts): MAX_CONNECTIONS leaves room for them. */
  readonly descriptors: number
  /** The live task with this id (undefined when none or deleted), and the seq the read reflects. */
  findTask(id: number): Promise<AtSeq<Task | undefined>>
  /** Up to `limit` live tasks matching the filter, in its order, in one snapshot. */
  readPage(filter: ListFilter, limit: number): Promise<AtSeq<Task[]>>
  /** A snapshot to read a long listing from in several queries. */
  openSnapshot(): Promise<Snapshot>
  /**
   * The newest seq in the database, read after this call was made (reads made for several
   * callers at once are shared, never one that started before the caller asked).
   */
  newestSeq(): Promise<number>
  /** Where the sequence stands (the newest seq and access seq), read as newestSeq is. */
  sequence(): Promise<Sequence>
  /** Lists, members and access tokens. */
  readonly access: AccessStorage
  /** Webhooks: their records, leases, cursors and attempts. */
  readonly webhooks: WebhookStorage
  /**
   * Up to `limit` tasks whose latest change has a seq above `after`, ascending by seq, and
   * the newest seq of the snapshot they were read in: every change up to it was visible to
   * the read, so a change with a greater seq was committed after it.
   */
  changesAfter(after: number, limit: number): Promise<AtSeq<Change[]>>
  /**
   * Calls `listener` with a new high-water seq whenever the changes up to it are known to be
   * committed, by this server or (PostgreSQL) any other on the database; returns the
   * function that stops the calls. One call may stand for several commits.
   */
  onCommitted(listener: (seq: number) => void): () => void
  /**
   * Commits a batch of writes in one transaction (one fsync), in order (a write sees the
   * ones before it), checking and storing each Idempotency-Key with its response; keys
   * stored before `notBefore` have expired. Resolves with one outcome per write.
   */
  write(items: readonly TaskWrite[], now: number, notBefore: number): Promise<WriteOutcome[]>
  /**
   * Deletes Idempotency-Keys created before `before`, then the oldest beyond the newest
   * `keep`; resolves with how many went.
   */
  purgeIdempotencyKeys(before: number, keep: number): Promise<number>
  /**
   * Up to `limit` entries of task `id`'s history with seqs below `before`, newest first, with
   * the list the task is (or was last) in: one snapshot.
   */
  taskHistory(id: number, before: number, limit: number): Promise<AtSeq<TaskHistory>>
  /**
   * Deletes the history entries older than `before` that no enabled webhook still has to
   * deliver; resolves with how many went.
   */
  pruneHistory(before: number): Promise<number>
  /** How many live tasks there are (at start-up, to say what was opened). */
  countTasks(): Promise<number>
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

import type { Kysely } from 'kysely'
import type { AccessWrite, AccessWritten } from './access-port.js'
import type { CommittedSeq } from './committed-seq.js'
import type { StorageEvents } from './events.js'
import type { Reads } from './reads.js'
import type { Snapshot, Storage, StorageConfig } from './storage.js'
import type { Schema } from './tables.js'

/**
 * What a database backend brings to the Storage port (task-storage.ts builds the port on
 * it): its reads, its commit of a batch, its snapshots, its way of hearing about commits it
 * does not make. `sqlite/open.ts` and `postgres/open.ts` each assemble one.
 */
export interface Backend {
  readonly kind: StorageConfig['kind']
  /** Kysely on the backend's shared connections, for maintenance (purge, ping). */
  readonly db: Kysely<Schema>
  /** The reads on the backend's shared connections, as prepared statements. */
  readonly reads: Reads
  /** How many batches may be on their way to `write` at once (see Storage). */
  readonly batchesInFlight: number
  /** Commits a batch with the one write algorithm (write-plan.ts). */
  readonly write: Storage['write']
  /** Commits one write of lists, members or tokens (access-writes.ts) in its own transaction. */
  readonly writeAccess: (
    write: AccessWrite,
    now: number,
    notBefore: number,
  ) => Promise<AccessWritten>
  /** Commits the write probe (write-probe.ts) on the write path. */
  readonly probeWrite: () => Promise<void>
  /** How many snapshots may be open at once (see Storage). */
  readonly maxSnapshots: number
  /** File descriptors it holds at most (see Storage). */
  readonly descriptors: number
  /** A snapshot on a connection of its own, for a listing read in several queries. */
  readonly openSnapshot: () => Promise<Snapshot>
  /**
   * Starts raising `committed` for commits this process does not make itself (other
   * instances on the same database); resolves the returned function to stop. Started on the
   * first `onCommitted` subscription, stopped on close. SQLite has no other writer.
   */
  readonly watchCommits?: (committed: CommittedSeq) => () => Promise<void>
  /** Where the backend reports what goes wrong beyond one request (a new one if not given). */
  readonly events?: StorageEvents
  /** Longest a call may wait for the database before it fails with a 503 (ms); unset: no bound. */
  readonly timeoutMs?: number | undefined
  /** Lets the writes already sent finish, then closes every connection. */
  readonly close: () => Promise<void>
}

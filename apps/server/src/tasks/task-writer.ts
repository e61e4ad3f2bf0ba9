import { ShuttingDownError, WriteQueueFullError } from '../domain/domain-errors.js'
import { KeysInFlight } from '../domain/keys-in-flight.js'
import type { Log } from '../domain/log.js'
import type { Storage, TaskWrite, WriteOutcome } from '../storage/open-storage.js'
import { toTaskWrite, type WriteRequest, type Written, written } from './write-requests.js'

export type { WriteRequest, Written } from './write-requests.js'

/** How long a repeat with the same Idempotency-Key replays the first response. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

/** A committed batch, as the writer reports it. */
export interface Commit {
  /** Writes in the batch. */
  readonly size: number
  /** How long `storage.write` took for it. */
  readonly seconds: number
  /** Tasks it created, changed and deleted (replays, refusals and no-change patches count in none). */
  readonly created: number
  readonly updated: number
  readonly deleted: number
}

/**
 * What the writer reports as it works, for whoever measures it (plugins/metrics.ts):
 * the writer itself knows nothing of how the figures are kept.
 */
export interface WriterObserver {
  /** After each batch that committed. */
  onCommit?(commit: Commit): void
  /** Writes waiting for a commit, each time that number changes. */
  onQueueDepth?(depth: number): void
}

/** Most writes one transaction carries, unless told fewer. */
export const MAX_BATCH = 512

/** Most writes waiting for a commit, unless told otherwise; past it, WriteQueueFullError. */
export const MAX_QUEUE = 10_000

/** Options of the TaskWriter. */
export interface TaskWriterOptions {
  /** Most writes in one transaction (1: no group commit). */
  readonly maxBatch?: number
  /** Most writes waiting; past it, WriteQueueFullError. */
  readonly maxQueue?: number
  /** Batches on their way to the database at once. */
  readonly pipeline?: number
  readonly now?: () => number
  readonly observer?: WriterObserver | undefined
  /** Where a failure after a commit (its observer's) is told. */
  readonly log?: Log | undefined
  /** The Idempotency-Keys in flight on every route (default: this writer's own). */
  readonly keysInFlight?: KeysInFlight | undefined
}

interface QueuedWrite {
  readonly write: TaskWrite
  resolve(outcome: WriteOutcome): void
  reject(error: unknown): void
}

/**
 * Group commit: writes that arrive while a transaction is being written wait in a queue and
 * go into the next transaction together, so N concurrent writes cost one commit (one fsync)
 * instead of N. Each caller is answered only after its commit. An Idempotency-Key is
 * checked and stored in the same transaction as its write.
 */
export class TaskWriter {
  readonly #storage: Storage
  readonly #maxBatch: number
  readonly #maxQueue: number
  readonly #pipeline: number
  readonly #now: () => number
  readonly #observer: WriterObserver
  readonly #log: Log | undefined
  readonly #queue: QueuedWrite[] = []
  /** Idempotency-Keys of the writes not yet answered, on every route. */
  readonly #inFlight: KeysInFlight
  readonly #writing = new Set<Promise<void>>()
  #scheduled = false
  #closed = false

  constructor(
    storage: Storage,
    {
      maxBatch = MAX_BATCH,
      maxQueue = MAX_QUEUE,
      pipeline = 2,
      now = Date.now,
      observer = {},
      log,
      keysInFlight = new KeysInFlight(),
    }: TaskWriterOptions = {},
  ) {
    this.#inFlight = keysInFlight
    this.#storage = storage
    this.#maxBatch = maxBatch
    this.#maxQueue = maxQueue
    this.#pipeline = pipeline
    this.#now = now
    this.#observer = observer
    this.#log = log
  }

  /** Commits one write with the others that arrive meanwhile; rejects with a DomainError when refused. */
  async write(request: WriteRequest): Promise<Written> {
    if (this.#closed) throw new ShuttingDownError()
    // Bounded: past this, waiting longer helps nobody; the client retries later.
    if (this.#queue.length >= this.#maxQueue) throw new WriteQueueFullError()
    const write = toTaskWrite(request)
    return this.#inFlight.holding(write.key, async () => {
      const outcome = await new Promise<WriteOutcome>((resolve, reject) => {
        this.#queue.push({ write, resolve, reject })
        this.#observer.onQueueDepth?.(this.#queue.length)
        this.#schedule()
      })
      return written(request, outcome)
    })
  }

  /** Waits for the writes in progress; later writes fail. */
  async close(): Promise<void> {
    this.#closed = true
    while (this.#queue.length > 0 || this.#writing.size > 0) {
      this.#pump()
      await Promise.all(this.#writing)
    }
  }

  async #commit(batch: QueuedWrite[]): Promise<void> {
    const time = this.#now()
    try {
      const started = performance.now()
      const outcomes = await this.#storage.write(
        batch.map((pending) => pending.write),
        time,
        time - IDEMPOTENCY_TTL_MS,
      )
      for (const [i, pending] of batch.entries()) pending.resolve(outcomes[i] as WriteOutcome)
      // Committed and answered: what the observer does with it can no longer fail a write.
      if (this.#observer.onCommit) {
        try {
          this.#report(batch, outcomes, started)
        } catch (error) {
          this.#log?.error({ err: error }, 'the commit observer failed')
        }
      }
    } catch (error) {
      for (const pending of batch) pending.reject(error)
    }
  }

  #report(batch: QueuedWrite[], outcomes: readonly WriteOutcome[], started: number): void {
    const counts = { created: 0, updated: 0, deleted: 0 }
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.result !== 'written' || outcome.replayed || !outcome.changed) continue
      const kind = (batch[i] as QueuedWrite).write.kind
      counts[kind === 'create' ? 'created' : kind === 'update' ? 'updated' : 'deleted']++
    }
    const seconds = (performance.now() - started) / 1000
    this.#observer.onCommit?.({ size: batch.length, seconds, ...counts })
  }

  // Up to `pipeline` batches are on their way at once, so the database starts the next
  // commit as soon as one ends instead of waiting for the answer to reach this thread.
  // Batches still commit one at a time, in order: seqs follow commit order.
  #pump(): void {
    this.#scheduled = false
    while (this.#queue.length > 0 && this.#writing.size < this.#pipeline) {
      const taken = this.#queue.splice(0, this.#maxBatch)
      this.#observer.onQueueDepth?.(this.#queue.length)
      const batch = this.#commit(taken).finally(() => {
        this.#writing.delete(batch)
        this.#schedule()
      })
      this.#writing.add(batch)
    }
  }

  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0) return
    this.#scheduled = true
    // After the requests already received this turn, so that they join the batch.
    setImmediate(() => this.#pump())
  }
}

import { createHash } from 'node:crypto'
import type { NewTask } from '@tasklane/contract'
import {
  IdempotencyConflictError,
  KeyInFlightError,
  ShuttingDownError,
  WriteQueueFullError,
} from '../errors.js'
import type { Storage, TaskWrite, WriteOutcome } from '../storage/index.js'

/** How long a repeat with the same Idempotency-Key replays the first response. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

/** A created (or, for a repeated key, the original) task. */
export type Created = Exclude<WriteOutcome, 'conflict'>

/** A committed batch, as the writer reports it. */
export interface Commit {
  /** Creates in the batch. */
  readonly size: number
  /** How long `storage.writeTasks` took for it. */
  readonly seconds: number
  /** Tasks it created (replays and key conflicts create none). */
  readonly created: number
}

/**
 * What the writer reports as it works, for whoever measures it (plugins/metrics.ts):
 * the writer itself knows nothing of how the figures are kept.
 */
export interface WriterObserver {
  /** After each batch that committed. */
  onCommit?(commit: Commit): void
  /** Creates waiting for a commit, each time that number changes. */
  onQueueDepth?(depth: number): void
}

/** Creates tasks; concurrent creates share one transaction and so one fsync. */
export interface TaskWriter {
  create(task: NewTask, idempotencyKey?: string): Promise<Created>
  /** Waits for the writes in progress; later creates fail. */
  close(): Promise<void>
}

interface Pending extends TaskWrite {
  resolve(outcome: WriteOutcome): void
  reject(error: unknown): void
}

function fingerprint(task: NewTask): string {
  return createHash('sha256')
    .update(JSON.stringify([task.name, task.tag ?? null]))
    .digest('base64url')
}

/**
 * Group commit: creates that arrive while a transaction is being written wait in a
 * queue and go into the next transaction together, so N concurrent creates cost one
 * commit (one fsync) instead of N. Each caller is answered only after its commit.
 * An Idempotency-Key is checked and stored in the same transaction as its task.
 */
export function createTaskWriter(
  storage: Storage,
  {
    maxBatch = 512,
    maxQueue = 10_000,
    pipeline = 2,
    now = Date.now,
    observer = {},
  }: {
    maxBatch?: number
    maxQueue?: number
    pipeline?: number
    now?: () => number
    observer?: WriterObserver
  } = {},
): TaskWriter {
  const queue: Pending[] = []
  const inFlight = new Set<string>()
  const writing = new Set<Promise<void>>()
  let scheduled = false
  let closed = false

  async function write(batch: Pending[]): Promise<void> {
    // Plain data only: the batch may cross to a worker thread.
    const items = batch.map(({ name, tag, key, fingerprint }) => ({ name, tag, key, fingerprint }))
    const time = now()
    try {
      const started = performance.now()
      const outcomes = await storage.writeTasks(items, time, time - IDEMPOTENCY_TTL_MS)
      if (observer.onCommit) {
        const seconds = (performance.now() - started) / 1000
        let created = 0
        for (const outcome of outcomes) if (outcome !== 'conflict' && !outcome.replayed) created++
        observer.onCommit({ size: batch.length, seconds, created })
      }
      for (const [i, item] of batch.entries()) item.resolve(outcomes[i] as WriteOutcome)
    } catch (error) {
      for (const item of batch) item.reject(error)
    }
  }

  // Up to `pipeline` batches are on their way at once, so the database starts the next
  // commit as soon as one ends instead of waiting for the answer to reach this thread.
  // Batches still commit one at a time, in order: ids follow commit order.
  function pump(): void {
    scheduled = false
    while (queue.length > 0 && writing.size < pipeline) {
      const taken = queue.splice(0, maxBatch)
      observer.onQueueDepth?.(queue.length)
      const batch = write(taken).finally(() => {
        writing.delete(batch)
        schedule()
      })
      writing.add(batch)
    }
  }

  function schedule(): void {
    if (scheduled || queue.length === 0) return
    scheduled = true
    // After the requests already received this turn, so that they join the batch.
    setImmediate(pump)
  }

  return {
    async create(task, key) {
      if (closed) throw new ShuttingDownError()
      // Bounded: past this, waiting longer helps nobody; the client retries later.
      if (queue.length >= maxQueue) throw new WriteQueueFullError()
      if (key !== undefined && inFlight.has(key)) throw new KeyInFlightError()
      if (key !== undefined) inFlight.add(key)
      try {
        const outcome = await new Promise<WriteOutcome>((resolve, reject) => {
          // Only a keyed create is ever compared with another: hash only those.
          const digest = key === undefined ? '' : fingerprint(task)
          queue.push({ name: task.name, tag: task.tag, key, fingerprint: digest, resolve, reject })
          observer.onQueueDepth?.(queue.length)
          schedule()
        })
        if (outcome === 'conflict') throw new IdempotencyConflictError()
        return outcome
      } finally {
        if (key !== undefined) inFlight.delete(key)
      }
    },
    async close() {
      closed = true
      while (queue.length > 0 || writing.size > 0) {
        pump()
        await Promise.all(writing)
      }
    },
  }
}

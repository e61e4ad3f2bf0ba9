import { createHash } from 'node:crypto'
import type { NewTask, Task } from '@tasklane/contract'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.js'
import type { Schema } from '../db/schema.js'
import { HttpError } from '../errors.js'
import { findIdempotencyKey, findTask, insertTask, saveIdempotencyKey } from './repository.js'

/** How long a repeat with the same Idempotency-Key replays the first response. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

/** A created (or, for a repeated key, the original) task. */
export interface Created {
  task: Task
  /** True when an Idempotency-Key repeat returned the task created by the first request. */
  replayed: boolean
}

/** Creates tasks; concurrent creates share one transaction and so one fsync. */
export interface TaskWriter {
  create(task: NewTask, idempotencyKey?: string): Promise<Created>
  /** Waits for the writes in progress; later creates fail. */
  close(): Promise<void>
}

interface Pending {
  task: NewTask
  key: string | undefined
  fingerprint: string
  resolve(outcome: Created | 'conflict'): void
  reject(error: unknown): void
}

function fingerprint(task: NewTask): string {
  return createHash('sha256')
    .update(JSON.stringify([task.name, task.tag ?? null]))
    .digest('base64url')
}

async function apply(
  trx: Kysely<Schema>,
  batch: Pending[],
  now: number,
): Promise<(Created | 'conflict')[]> {
  const outcomes: (Created | 'conflict')[] = []
  for (const item of batch) {
    const known = item.key && (await findIdempotencyKey(trx, item.key, now - IDEMPOTENCY_TTL_MS))
    if (known) {
      const task = known.fingerprint === item.fingerprint && (await findTask(trx, known.taskId))
      outcomes.push(task ? { task, replayed: true } : 'conflict')
      continue
    }
    const task = await insertTask(trx, item.task)
    if (item.key) {
      await saveIdempotencyKey(trx, {
        key: item.key,
        fingerprint: item.fingerprint,
        taskId: task.id,
        createdAt: now,
      })
    }
    outcomes.push({ task, replayed: false })
  }
  return outcomes
}

/**
 * Group commit: creates that arrive while a transaction is being written wait in a
 * queue and go into the next transaction together, so N concurrent creates cost one
 * commit (one fsync) instead of N. Each caller is answered only after its commit.
 * An Idempotency-Key is checked and stored in the same transaction as its task.
 */
export function createTaskWriter(
  database: Database,
  {
    maxBatch = 512,
    maxQueue = 10_000,
    now = Date.now,
  }: { maxBatch?: number; maxQueue?: number; now?: () => number } = {},
): TaskWriter {
  const queue: Pending[] = []
  const inFlight = new Set<string>()
  let draining: Promise<void> | undefined
  let closed = false

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      // Yield to the event loop so that requests already received join this batch.
      await new Promise((resolve) => setImmediate(resolve))
      const batch = queue.splice(0, maxBatch)
      try {
        const outcomes = await database.db.transaction().execute(async (trx) => {
          await database.serializeWrites(trx)
          return apply(trx, batch, now())
        })
        for (const [i, item] of batch.entries()) item.resolve(outcomes[i] as Created | 'conflict')
      } catch (error) {
        for (const item of batch) item.reject(error)
      }
    }
    draining = undefined
  }

  return {
    async create(task, key) {
      if (closed) throw new HttpError(503, 'The server is shutting down; retry the request.')
      if (queue.length >= maxQueue) {
        // Bounded: past this, waiting longer helps nobody; the client retries later.
        throw new HttpError(503, 'Too many creates are waiting; retry the request shortly.', {
          'Retry-After': '1',
        })
      }
      if (key !== undefined && inFlight.has(key)) {
        throw new HttpError(
          409,
          'A request with this Idempotency-Key is still in progress; retry after it completes.',
        )
      }
      if (key !== undefined) inFlight.add(key)
      try {
        const outcome = await new Promise<Created | 'conflict'>((resolve, reject) => {
          queue.push({ task, key, fingerprint: fingerprint(task), resolve, reject })
          draining ??= drain()
        })
        if (outcome === 'conflict') {
          throw new HttpError(
            422,
            'This Idempotency-Key was already used with a different request body.',
          )
        }
        return outcome
      } finally {
        if (key !== undefined) inFlight.delete(key)
      }
    },
    async close() {
      closed = true
      await draining
    },
  }
}

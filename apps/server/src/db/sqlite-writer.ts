import { Worker } from 'node:worker_threads'
import type { TaskWrite, WriteOutcome } from './database.js'

interface Waiting {
  resolve(outcomes: WriteOutcome[]): void
  reject(error: Error): void
}

type Reply = { id: number; outcomes: WriteOutcome[] } | { id: number; error: string; code?: string }

/** Said by every write after close; db/unavailable.ts reads it as a 503. */
export const CLOSED = 'The SQLite writer is closed.'

/**
 * The SQLite write path: a worker thread with its own connection commits each batch,
 * so the fsync of a durable commit never stalls the event loop, and creates that arrive
 * meanwhile gather into the next batch.
 */
export function createSqliteWriter(filename: string) {
  const worker = new Worker(
    // Beside this module in src/db/, and copied beside main.js into dist/ by the build.
    new URL('./sqlite-worker.mjs', import.meta.url),
    { workerData: { filename } },
  )
  const waiting = new Map<number, Waiting>()
  let nextId = 0
  let closed = false

  const failAll = (error: Error) => {
    for (const entry of waiting.values()) entry.reject(error)
    waiting.clear()
  }
  worker.on('message', (reply: Reply) => {
    const entry = waiting.get(reply.id)
    waiting.delete(reply.id)
    if ('error' in reply) {
      entry?.reject(
        Object.assign(new Error(`SQLite write failed: ${reply.error}`), { code: reply.code }),
      )
    } else entry?.resolve(reply.outcomes)
  })
  worker.on('error', (error) => failAll(error))
  worker.on('exit', () => {
    closed = true
    failAll(new Error(CLOSED))
  })

  return {
    write(items: TaskWrite[], now: number, notBefore: number): Promise<WriteOutcome[]> {
      if (closed) return Promise.reject(new Error(CLOSED))
      const id = nextId++
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject })
        worker.postMessage({ id, items, now, notBefore })
      })
    },
    /** Lets the batches already sent finish, then closes the connection and the thread. */
    async close(): Promise<void> {
      if (closed) return
      closed = true
      const exited = new Promise((resolve) => worker.once('exit', resolve))
      worker.postMessage({ close: true })
      await exited
    },
  }
}

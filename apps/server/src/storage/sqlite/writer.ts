import { Worker } from 'node:worker_threads'
import { DatabaseUnavailableError } from '../../errors.js'
import type { TaskWrite, WriteOutcome } from '../storage.js'

/** What the main thread sends the writer thread: a batch to commit, or the order to close. */
export type WriterRequest =
  | { id: number; items: readonly TaskWrite[]; now: number; notBefore: number }
  | { close: true }

/** What the writer thread answers: the batch's outcomes, or why it failed. */
export type WriterReply =
  | { id: number; outcomes: WriteOutcome[] }
  | { id: number; error: string; code?: string | undefined }

interface Waiting {
  resolve(outcomes: WriteOutcome[]): void
  reject(error: Error): void
}

/**
 * The writer thread's entry: JavaScript beside main.js once built; from the TypeScript
 * sources (tests), worker.ts started through tsx.
 */
function startWorker(filename: string): Worker {
  if (import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./run-typescript.mjs', import.meta.url), {
      workerData: { filename, entry: new URL('./worker.ts', import.meta.url).href },
      // Workspace packages resolve to their sources here too, as in the thread that starts it.
      execArgv: [...process.execArgv, '--conditions=@tasklane/source'],
    })
  }
  return new Worker(new URL('./sqlite-worker.js', import.meta.url), { workerData: { filename } })
}

/**
 * The SQLite write path: a worker thread with its own connection commits each batch,
 * so the fsync of a durable commit never stalls the event loop, and creates that arrive
 * meanwhile gather into the next batch.
 */
export function createSqliteWriter(filename: string) {
  const worker = startWorker(filename)
  const waiting = new Map<number, Waiting>()
  let nextId = 0
  let closed = false

  const failAll = (error: Error) => {
    for (const entry of waiting.values()) entry.reject(error)
    waiting.clear()
  }
  worker.on('message', (reply: WriterReply) => {
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
    failAll(new DatabaseUnavailableError({ cause: new Error('The SQLite writer thread exited.') }))
  })

  return {
    write(items: readonly TaskWrite[], now: number, notBefore: number): Promise<WriteOutcome[]> {
      if (closed) return Promise.reject(new DatabaseUnavailableError())
      const id = nextId++
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject })
        worker.postMessage({ id, items, now, notBefore } satisfies WriterRequest)
      })
    },
    /** Lets the batches already sent finish, then closes the connection and the thread. */
    async close(): Promise<void> {
      if (closed) return
      closed = true
      const exited = new Promise((resolve) => worker.once('exit', resolve))
      worker.postMessage({ close: true } satisfies WriterRequest)
      await exited
    },
  }
}

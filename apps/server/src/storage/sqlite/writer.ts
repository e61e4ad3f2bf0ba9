import { Worker } from 'node:worker_threads'
import { DatabaseUnavailableError } from '../../errors.js'
import type { StorageEvent } from '../events.js'
import type { TaskWrite, WriteOutcome } from '../storage.js'
import type { FileIdentity } from './file-identity.js'

/** What the main thread sends the writer thread: a batch, the write probe, or the order to close. */
export type WriterRequest =
  | { id: number; items: readonly TaskWrite[]; now: number; notBefore: number }
  | { id: number; probe: true }
  | { close: true }

/** What the writer thread answers: the batch's outcomes, or why it failed. */
export type WriterReply =
  | { id: number; outcomes: WriteOutcome[] }
  | { id: number; error: string; code?: string | undefined }

interface Waiting {
  resolve(outcomes: WriteOutcome[]): void
  reject(error: Error): void
}

/** A dead writer thread is restarted after this delay, doubled at each death in a row, up to the maximum. */
const RESTART_MS = { first: 100, max: 5_000 }

/**
 * The writer thread's entry: JavaScript beside main.js once built; from the TypeScript
 * sources (tests), worker.ts started through tsx.
 */
function startWorker(workerData: { filename: string; identity: FileIdentity }): Worker {
  if (import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./run-typescript.mjs', import.meta.url), {
      workerData: { ...workerData, entry: new URL('./worker.ts', import.meta.url).href },
      // Workspace packages resolve to their sources here too, as in the thread that starts it.
      execArgv: [...process.execArgv, '--conditions=@tasklane/source'],
    })
  }
  return new Worker(new URL('./sqlite-worker.js', import.meta.url), { workerData })
}

/**
 * The SQLite write path: a worker thread with its own connection commits each batch,
 * so the fsync of a durable commit never stalls the event loop, and creates that arrive
 * meanwhile gather into the next batch. The thread is supervised: when it dies, the
 * writes it held fail with DatabaseUnavailableError (503), the death is reported, and a
 * new thread starts after a backoff; writes fail at once until then. `identity` is the
 * database file's, taken when the server opened it: the thread writes to no other.
 */
export function createSqliteWriter(
  filename: string,
  identity: FileIdentity,
  report: (event: StorageEvent) => void,
) {
  const waiting = new Map<number, Waiting>()
  let worker: Worker | undefined
  let nextId = 0
  let closed = false
  /** Deaths since the last thread that answered: the backoff grows with them. */
  let deaths = 0
  let restartTimer: NodeJS.Timeout | undefined

  const failAll = (error: Error) => {
    for (const entry of waiting.values()) entry.reject(error)
    waiting.clear()
  }

  function start(): void {
    const thread = startWorker({ filename, identity })
    let died: unknown
    worker = thread
    thread.on('message', (reply: WriterReply) => {
      const entry = waiting.get(reply.id)
      waiting.delete(reply.id)
      if ('error' in reply) {
        entry?.reject(
          Object.assign(new Error(`SQLite write failed: ${reply.error}`), { code: reply.code }),
        )
        return
      }
      if (deaths > 0) report({ level: 'info', message: 'The SQLite writer thread is back.' })
      deaths = 0
      entry?.resolve(reply.outcomes)
    })
    thread.on('error', (error) => {
      died = error
    })
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined
      const cause = died ?? new Error(`The SQLite writer thread exited with code ${code}.`)
      failAll(new DatabaseUnavailableError({ cause }))
      if (closed) return
      const delay = Math.min(RESTART_MS.max, RESTART_MS.first * 2 ** deaths++)
      report({
        level: 'error',
        message: `The SQLite writer thread stopped (${(cause as Error).message ?? cause}); restarting it in ${delay} ms.`,
        err: cause,
      })
      restartTimer = setTimeout(() => closed || start(), delay)
    })
  }

  function send(request: (id: number) => WriterRequest): Promise<WriteOutcome[]> {
    if (closed || worker === undefined) {
      return Promise.reject(
        new DatabaseUnavailableError({
          cause: new Error(`The SQLite writer thread is ${closed ? 'closed' : 'restarting'}.`),
        }),
      )
    }
    const id = nextId++
    const thread = worker
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject })
      thread.postMessage(request(id))
    })
  }

  start()
  return {
    write: (items: readonly TaskWrite[], now: number, notBefore: number) =>
      send((id) => ({ id, items, now, notBefore })),
    /** Commits the write probe (write-probe.ts) in turn with the batches. */
    probe: async (): Promise<void> => void (await send((id) => ({ id, probe: true }))),
    /** The running thread, undefined while it is being restarted: for tests that kill it. */
    thread: (): Worker | undefined => worker,
    /** Lets the batches already sent finish, then closes the connection and the thread. */
    async close(): Promise<void> {
      if (closed) return
      closed = true
      clearTimeout(restartTimer)
      const thread = worker
      if (thread === undefined) return
      const exited = new Promise((resolve) => thread.once('exit', resolve))
      thread.postMessage({ close: true } satisfies WriterRequest)
      await exited
    },
  }
}

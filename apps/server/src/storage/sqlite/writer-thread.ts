import { Worker } from 'node:worker_threads'
import { DatabaseUnavailableError } from '../../domain/domain-errors.js'
import type { AccessWrite, AccessWritten } from '../access-port.js'
import type { StorageEvent } from '../events.js'
import type { TaskWrite, WriteOutcome } from '../storage.js'
import type { FileIdentity } from './file-identity.js'

/** What the main thread sends the writer thread: a batch, the write probe, or the order to close. */
export type WriterRequest =
  | { id: number; items: readonly TaskWrite[]; now: number; notBefore: number }
  | { id: number; access: AccessWrite; now: number; notBefore: number }
  | { id: number; probe: true }
  | { close: true }

/** What the writer thread answers: the batch's outcomes, or why it failed. */
export type WriterReply =
  | { id: number; outcomes: WriteOutcome[] }
  | { id: number; access: AccessWritten }
  | { id: number; error: string; code?: string | undefined }

interface Waiting {
  resolve(reply: WriterReply): void
  reject(error: Error): void
}

/** A dead writer thread is restarted after this delay, doubled at each death in a row, up to the maximum. */
const RESTART_MS = { first: 100, max: 5_000 }

/** What the writer thread is started with: the file, as it was when the server opened it. */
interface WorkerData {
  readonly filename: string
  readonly identity: FileIdentity
}

/**
 * The writer thread's entry: JavaScript beside main.js once built; from the TypeScript
 * sources (tests), writer-worker.ts started through tsx.
 */
function startWorker(workerData: WorkerData): Worker {
  if (import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./run-typescript.mjs', import.meta.url), {
      workerData: { ...workerData, entry: new URL('./writer-worker.ts', import.meta.url).href },
      // Workspace packages resolve to their sources here too, as in the thread that starts it.
      execArgv: [...process.execArgv, '--conditions=@tasklane/source'],
    })
  }
  return new Worker(new URL('./sqlite-worker.js', import.meta.url), { workerData })
}

/**
 * The SQLite write path: a worker thread with its own connection commits each batch,
 * so the fsync of a durable commit never stalls the event loop, and writes that arrive
 * meanwhile gather into the next batch. The thread is supervised: when it dies, the
 * writes it held fail with DatabaseUnavailableError (503), the death is reported, and a
 * new thread starts after a backoff; writes fail at once until then. The thread writes to
 * no file but the one the server opened (`identity`).
 */
export class SqliteWriterThread {
  readonly #data: WorkerData
  readonly #report: (event: StorageEvent) => void
  readonly #waiting = new Map<number, Waiting>()
  #worker: Worker | undefined
  #nextId = 0
  #closed = false
  /** Deaths since the last thread that answered: the backoff grows with them. */
  #deaths = 0
  #restartTimer: NodeJS.Timeout | undefined

  constructor(filename: string, identity: FileIdentity, report: (event: StorageEvent) => void) {
    this.#data = { filename, identity }
    this.#report = report
    this.#start()
  }

  /** Commits a batch on the writer thread. */
  async write(
    items: readonly TaskWrite[],
    now: number,
    notBefore: number,
  ): Promise<WriteOutcome[]> {
    const reply = await this.#send((id) => ({ id, items, now, notBefore }))
    return 'outcomes' in reply ? reply.outcomes : []
  }

  /** Commits one write of lists, members or tokens on the writer thread. */
  async access(write: AccessWrite, now: number, notBefore: number): Promise<AccessWritten> {
    const reply = await this.#send((id) => ({ id, access: write, now, notBefore }))
    if (!('access' in reply)) throw new Error('The writer thread answered an access write wrongly.')
    return reply.access
  }

  /** Commits the write probe (write-probe.ts) in turn with the batches. */
  async probe(): Promise<void> {
    await this.#send((id) => ({ id, probe: true }))
  }

  /** The running thread, undefined while it is being restarted: for tests that kill it. */
  thread(): Worker | undefined {
    return this.#worker
  }

  /** Lets the batches already sent finish, then closes the connection and the thread. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    clearTimeout(this.#restartTimer)
    const thread = this.#worker
    if (thread === undefined) return
    const exited = new Promise((resolve) => thread.once('exit', resolve))
    thread.postMessage({ close: true } satisfies WriterRequest)
    await exited
  }

  #failAll(error: Error): void {
    for (const entry of this.#waiting.values()) entry.reject(error)
    this.#waiting.clear()
  }

  #start(): void {
    const thread = startWorker(this.#data)
    let died: unknown
    this.#worker = thread
    thread.on('message', (reply: WriterReply) => this.#onReply(reply))
    thread.on('error', (error) => {
      died = error
    })
    thread.on('exit', (code) => {
      if (this.#worker === thread) this.#worker = undefined
      const cause = died ?? new Error(`The SQLite writer thread exited with code ${code}.`)
      this.#failAll(new DatabaseUnavailableError({ cause }))
      if (this.#closed) return
      const delay = Math.min(RESTART_MS.max, RESTART_MS.first * 2 ** this.#deaths++)
      this.#report({
        level: 'error',
        message: `The SQLite writer thread stopped (${(cause as Error).message ?? cause}); restarting it in ${delay} ms.`,
        err: cause,
      })
      this.#restartTimer = setTimeout(() => this.#closed || this.#start(), delay)
    })
  }

  #onReply(reply: WriterReply): void {
    const entry = this.#waiting.get(reply.id)
    this.#waiting.delete(reply.id)
    if ('error' in reply) {
      entry?.reject(
        Object.assign(new Error(`SQLite write failed: ${reply.error}`), { code: reply.code }),
      )
      return
    }
    if (this.#deaths > 0)
      this.#report({ level: 'info', message: 'The SQLite writer thread is back.' })
    this.#deaths = 0
    entry?.resolve(reply)
  }

  #send(request: (id: number) => WriterRequest): Promise<WriterReply> {
    const thread = this.#worker
    if (this.#closed || thread === undefined) {
      return Promise.reject(
        new DatabaseUnavailableError({
          cause: new Error(
            `The SQLite writer thread is ${this.#closed ? 'closed' : 'restarting'}.`,
          ),
        }),
      )
    }
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject })
      thread.postMessage(request(id))
    })
  }
}

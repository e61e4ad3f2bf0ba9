import type { Log } from './log.js'

/**
 * A background job run at start and then every `everyMs` until stopped: each run resolves
 * with how many rows it removed (logged when some did). A failure is logged and tried again
 * at the next run; a run never overlaps the one before it.
 */
export class Periodic {
  readonly #what: string
  readonly #everyMs: number
  readonly #run: () => Promise<number>
  readonly #log: Log
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> | undefined

  constructor(what: string, everyMs: number, run: () => Promise<number>, log: Log) {
    this.#what = what
    this.#everyMs = everyMs
    this.#run = run
    this.#log = log
  }

  /** Runs once, then every period until stopped. */
  async start(): Promise<void> {
    this.#timer ??= setInterval(() => void this.#once(), this.#everyMs).unref()
    await this.#once()
  }

  stop(): void {
    clearInterval(this.#timer)
    this.#timer = undefined
  }

  #once(): Promise<void> {
    this.#running ??= this.#attempt().finally(() => {
      this.#running = undefined
    })
    return this.#running
  }

  async #attempt(): Promise<void> {
    try {
      const removed = await this.#run()
      if (removed > 0) this.#log.info({ removed }, `purged ${this.#what}`)
    } catch (error) {
      this.#log.warn({ err: error }, `could not purge ${this.#what}`)
    }
  }
}

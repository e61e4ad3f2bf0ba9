import type { Log } from '../domain/log.js'
import type { Storage } from '../storage/open-storage.js'
import { IDEMPOTENCY_TTL_MS } from './task-writer.js'

/** How often expired Idempotency-Keys are deleted. */
const PURGE_EVERY_MS = 60 * 60 * 1000

/**
 * Deletes the Idempotency-Keys past their time to live: at start, then every hour. A
 * failure is logged and tried again at the next hour; a key past its time never replays
 * anyway (the write path ignores it), so a late purge only costs space.
 */
export class IdempotencyPurge {
  readonly #storage: Storage
  readonly #log: Log
  #timer: NodeJS.Timeout | undefined

  constructor(storage: Storage, log: Log) {
    this.#storage = storage
    this.#log = log
  }

  /** Purges once, then every hour until stopped. */
  async start(): Promise<void> {
    this.#timer ??= setInterval(() => void this.#purge(), PURGE_EVERY_MS).unref()
    await this.#purge()
  }

  stop(): void {
    clearInterval(this.#timer)
    this.#timer = undefined
  }

  async #purge(): Promise<void> {
    try {
      const purged = await this.#storage.purgeIdempotencyKeys(Date.now() - IDEMPOTENCY_TTL_MS)
      if (purged > 0) this.#log.info({ purged }, 'purged expired idempotency keys')
    } catch (error) {
      this.#log.warn({ err: error }, 'could not purge expired idempotency keys')
    }
  }
}

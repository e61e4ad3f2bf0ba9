import type { Log } from '../domain/log.js'
import type { Storage } from '../storage/open-storage.js'
import { IDEMPOTENCY_TTL_MS } from './task-writer.js'

/** How often Idempotency-Keys are purged. */
const PURGE_EVERY_MS = 60 * 1000

/**
 * Deletes the Idempotency-Keys past their time to live, and the oldest beyond the newest
 * `maxKeys` (IDEMPOTENCY_MAX_KEYS: the store's bound, whatever clients send): at start,
 * then every minute. A failure is logged and tried again at the next; a key past its time
 * never replays anyway (the write path ignores it), so a late purge only costs space.
 */
export class IdempotencyPurge {
  readonly #storage: Storage
  readonly #log: Log
  readonly #maxKeys: number
  #timer: NodeJS.Timeout | undefined

  constructor(storage: Storage, log: Log, maxKeys: number) {
    this.#storage = storage
    this.#log = log
    this.#maxKeys = maxKeys
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
      const before = Date.now() - IDEMPOTENCY_TTL_MS
      const purged = await this.#storage.purgeIdempotencyKeys(before, this.#maxKeys)
      if (purged > 0) this.#log.info({ purged }, 'purged expired idempotency keys')
    } catch (error) {
      this.#log.warn({ err: error }, 'could not purge expired idempotency keys')
    }
  }
}

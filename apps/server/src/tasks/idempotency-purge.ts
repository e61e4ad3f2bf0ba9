import type { Log } from '../domain/log.js'
import { Periodic } from '../domain/periodic.js'
import type { Storage } from '../storage/open-storage.js'
import { IDEMPOTENCY_TTL_MS } from './task-writer.js'

/** How often Idempotency-Keys are purged. */
const PURGE_EVERY_MS = 60 * 1000

/**
 * Deletes the Idempotency-Keys past their time to live, and the oldest beyond the newest
 * `maxKeys` (IDEMPOTENCY_MAX_KEYS: the store's bound, whatever clients send): at start,
 * then every minute. A key past its time never replays anyway (the write path ignores it),
 * so a late purge only costs space.
 */
export const idempotencyPurge = (storage: Storage, log: Log, maxKeys: number) =>
  new Periodic(
    'expired idempotency keys',
    PURGE_EVERY_MS,
    () => storage.purgeIdempotencyKeys(Date.now() - IDEMPOTENCY_TTL_MS, maxKeys),
    log,
  )

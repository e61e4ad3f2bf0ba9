import type { Kysely } from 'kysely'
import type { Schema } from './tables.js'

/** Keys deleted per statement: a purge never holds the write lock for long. */
const PURGE_BATCH = 5_000

/** Deletes up to a batch of the keys created before `before`; returns how many went. */
async function deleteBatch(db: Kysely<Schema>, before: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where(
      'key',
      'in',
      db
        .selectFrom('idempotency_keys')
        .select('key')
        .where('created_at', '<', before)
        .limit(PURGE_BATCH),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** The time of the `keep`-th newest key, if there are more than `keep`: older ones go. */
async function oldestKept(db: Kysely<Schema>, keep: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select('created_at')
    .orderBy('created_at', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst()
  return row === undefined ? undefined : Number(row.created_at) + 1
}

/**
 * Deletes the Idempotency-Keys created before `before` (past their time to live), and then,
 * if more than `keep` remain, the oldest of them down to `keep` (about; keys of the same
 * millisecond go together): the store stays bounded, however many keys clients send. A
 * batch at a time, so that writes go on between them. Returns how many went.
 */
export async function purgeIdempotencyKeys(
  db: Kysely<Schema>,
  before: number,
  keep: number,
): Promise<number> {
  let purged = 0
  for (const bound of [before, await oldestKept(db, keep)]) {
    if (bound === undefined) continue
    for (;;) {
      const deleted = await deleteBatch(db, bound)
      purged += deleted
      if (deleted < PURGE_BATCH) break
    }
  }
  return purged
}

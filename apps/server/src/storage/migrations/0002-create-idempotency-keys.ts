// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import type { Kysely, Migration } from 'kysely'

/** Idempotency-Keys: which task a key created, and a digest of the body it came with. */
export const createIdempotencyKeys = (): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('fingerprint', 'text', (column) => column.notNull())
      .addColumn('task_id', 'bigint', (column) => column.notNull())
      // Milliseconds since the epoch: the same type and meaning on every backend.
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute()
    await db.schema
      .createIndex('idempotency_keys_created_at')
      .on('idempotency_keys')
      .column('created_at')
      .execute()
  },
})

// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import type { Kysely, Migration } from 'kysely'

/** One row that readiness rewrites (write-probe.ts) to learn whether writes commit. */
export const createWriteProbe = (): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('write_probe')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('probes', 'bigint', (column) => column.notNull())
      .execute()
  },
})

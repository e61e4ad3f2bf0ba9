// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import { type Kysely, type Migration, sql } from 'kysely'
import type { Dialect } from './dialect.js'

/**
 * SQLite: the trigger of migration 0003 goes. Any trigger on a table makes each insert run
 * SQLite's trigger program, and it cost a fifth of a create's time on the writer thread;
 * the write algorithm (write-plan.ts) refuses an id above 2^53-1 itself, before the batch
 * commits, so none is ever issued. PostgreSQL keeps its sequence's maxvalue.
 */
export const idsCheckedOnInsert = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    if (dialect === 'sqlite') await sql`drop trigger if exists tasks_id_limit`.execute(db)
  },
})

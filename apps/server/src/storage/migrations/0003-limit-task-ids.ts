// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import { MAX_TASK_ID } from '@tasklane/contract'
import { type Kysely, type Migration, sql } from 'kysely'
import type { Dialect } from './dialect.js'

/**
 * Ids are JSON numbers: above 2^53-1 a JavaScript client would read them inexactly, so the
 * database refuses to assign one rather than the server issuing it.
 */
export const limitTaskIds = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    if (dialect === 'postgres') {
      await sql`alter table tasks alter column id set maxvalue ${sql.lit(MAX_TASK_ID)}`.execute(db)
      return
    }
    await sql`create trigger tasks_id_limit after insert on tasks
      when new.id > ${sql.lit(MAX_TASK_ID)}
      begin select raise(abort, 'task ids are exhausted'); end`.execute(db)
  },
})

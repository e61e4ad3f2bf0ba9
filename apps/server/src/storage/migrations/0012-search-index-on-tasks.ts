// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import { type Kysely, type Migration, sql } from 'kysely'
import type { Dialect } from './dialect.js'

/**
 * SQLite: the search index of migration 0008 is made anew as an index of `tasks.search`
 * (an FTS5 table with external content) that keeps no copy of the text and no sizes of
 * it. The copy and the sizes were two more rows written (and, on a change, two more
 * deleted) with every task's search text: a rename took 48 µs in the index, now 24. The
 * writer removes a task's old text by naming it (FTS5's `delete` command), from the row
 * it has just read. Only live tasks are indexed, as before. PostgreSQL is unchanged.
 */
export const searchIndexOnTasks = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    if (dialect !== 'sqlite') return
    await sql`drop table tasks_search`.execute(db)
    await sql`create virtual table tasks_search using fts5(search, tokenize = 'trigram',
      content = 'tasks', content_rowid = 'id', columnsize = 0)`.execute(db)
    await sql`insert into tasks_search (rowid, search)
      select id, search from tasks where status <> 'deleted'`.execute(db)
  },
})

// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import type { Kysely, Migration } from 'kysely'
import { sql } from 'kysely'
import { HISTORY_WRITE_FUNCTION } from './0009-history-and-webhooks.js'
import type { Dialect } from './dialect.js'

/** `text` with `from` replaced by `to`, once; a function that no longer holds `from` is a fault. */
function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`The write function no longer holds: ${from}`)
  return text.replace(from, to)
}

/**
 * PostgreSQL: the write function of migration 0009 that also keeps, with a task's latest
 * change, its priority and due before it (`prev_priority`, `prev_due`), as it keeps its
 * tag, status and list.
 */
export const FEED_VIEWS_WRITE_FUNCTION = [
  [
    'prev_list_id = r.prev_list_id, notes = r.notes,',
    'prev_list_id = r.prev_list_id, prev_priority = r.prev_priority, prev_due = r.prev_due,\n    notes = r.notes,',
  ],
  [
    'prev_list_id bigint, notes text, due text,',
    'prev_list_id bigint, prev_priority int, prev_due text, notes text, due text,',
  ],
].reduce((text, [from, to]) => replaced(text, from as string, to as string), HISTORY_WRITE_FUNCTION)

/**
 * The change feed's views by priority and due dates stay exact: each task's latest change
 * keeps the priority and due the task had before it (null on changes made before this
 * migration: not known, and the feed treats them as such).
 */
export const feedPlanningViews = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('tasks').addColumn('prev_priority', 'integer').execute()
    await db.schema.alterTable('tasks').addColumn('prev_due', 'text').execute()
    if (dialect === 'postgres') await sql.raw(FEED_VIEWS_WRITE_FUNCTION).execute(db)
  },
})

// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import { type Kysely, type Migration, Migrator, sql } from 'kysely'
import { createTasks } from './0001-create-tasks.js'
import { createIdempotencyKeys } from './0002-create-idempotency-keys.js'
import { limitTaskIds } from './0003-limit-task-ids.js'
import { createWriteProbe } from './0004-create-write-probe.js'
import { createWriteFunction } from './0005-write-function.js'
import { taskLifecycle } from './0006-task-lifecycle.js'
import { listsAndPeople } from './0007-lists-and-people.js'
import { planning } from './0008-planning.js'
import { historyAndWebhooks } from './0009-history-and-webhooks.js'
import { feedPlanningViews } from './0010-feed-planning-views.js'
import { idsCheckedOnInsert } from './0011-ids-checked-on-insert.js'
import { searchIndexOnTasks } from './0012-search-index-on-tasks.js'
import type { Dialect } from './dialect.js'

/** The name of the newest migration: a database migrated to it is up to date. */
export const LATEST_MIGRATION = '0012-search-index-on-tasks'

/** Migrations in order; names sort lexically, so they carry a number. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-create-tasks': createTasks(dialect),
    '0002-create-idempotency-keys': createIdempotencyKeys(),
    '0003-limit-task-ids': limitTaskIds(dialect),
    '0004-create-write-probe': createWriteProbe(),
    '0005-write-function': createWriteFunction(dialect),
    '0006-task-lifecycle': taskLifecycle(dialect),
    '0007-lists-and-people': listsAndPeople(dialect),
    '0008-planning': planning(dialect),
    '0009-history-and-webhooks': historyAndWebhooks(dialect),
    '0010-feed-planning-views': feedPlanningViews(dialect),
    '0011-ids-checked-on-insert': idsCheckedOnInsert(dialect),
    '0012-search-index-on-tasks': searchIndexOnTasks(dialect),
  }
}

async function currentSchema(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    db,
  )
  const schema = rows[0]?.schema
  if (!schema) throw new Error('No schema of the PostgreSQL search_path exists.')
  return schema
}

/**
 * Brings the schema up to `target` (default: the newest migration); safe to call on every
 * start. Tests pass an older target to make a database as an earlier release left it.
 */
export async function migrate(
  db: Kysely<any>,
  dialect: Dialect,
  target = LATEST_MIGRATION,
): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    // PostgreSQL: Kysely looks for its own tables in every schema unless told which;
    // with another deployment (or test run) in a neighbouring schema it would find
    // theirs and never create ours. The schema is the first of the search_path.
    migrationTableSchema: dialect === 'postgres' ? await currentSchema(db) : undefined,
  })
  const { error } = await migrator.migrateTo(target)
  if (error) throw error
}

import { type Kysely, sql } from 'kysely'
import { sequence } from './reads.js'
import type { Schema } from './tables.js'
import type { WebhookBacklog } from './webhook-port.js'

/**
 * How far the enabled webhooks are behind, in one statement: the largest gap between the
 * newest seq and a cursor, how many have a gap, how many are in a backoff (failed last).
 */
export async function webhookBacklog(db: Kysely<Schema>): Promise<WebhookBacklog> {
  const row = await db
    .selectFrom(sequence(db))
    .leftJoin('webhooks as w', (join) => join.on('w.deleted', '=', 0).on('w.enabled', '=', 1))
    .select([
      sql<number | string | null>`max(s.newest - w.cursor)`.as('lag'),
      sql<number | string>`count(case when w.cursor < s.newest then 1 end)`.as('behind'),
      sql<number | string>`count(case when w.attempts > 0 then 1 end)`.as('retrying'),
    ])
    .executeTakeFirst()
  return {
    maxLag: Math.max(0, Number(row?.lag ?? 0)),
    behind: Number(row?.behind ?? 0),
    retrying: Number(row?.retrying ?? 0),
  }
}

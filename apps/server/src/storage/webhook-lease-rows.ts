import { type Kysely, sql } from 'kysely'
import { sequence } from './reads.js'
import type { HistoryType, Schema } from './tables.js'
import type { DeliveryRecord, Failure, HistoryChange, WebhookRecord } from './webhook-port.js'
import { toWebhook } from './webhook-rows.js'

// What lets one instance at a time deliver a webhook: a lease row (`lease_owner`,
// `lease_until`) taken with a conditional UPDATE, which PostgreSQL and SQLite both make
// atomic; and the cursor moved only by the lease's holder, only from where it read it.

type Db = Kysely<Schema>

/** Webhooks with something to deliver now: enabled, past their backoff, unleased, behind. */
export async function dueWebhooks(db: Db, now: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('webhooks as w')
    .innerJoin(sequence(db), (join) => join.onTrue())
    .select('w.id')
    .where('w.deleted', '=', 0)
    .where('w.enabled', '=', 1)
    .where('w.next_attempt_at', '<=', now)
    .where('w.lease_until', '<=', now)
    .whereRef('w.cursor', '<', 's.newest')
    .orderBy('w.next_attempt_at')
    .limit(limit)
    .execute()
  return rows.map((row) => Number(row.id))
}

/** Takes the lease when it has expired (or was let go); the webhook when taken. */
export async function claimLease(
  db: Db,
  id: number,
  holder: string,
  now: number,
  until: number,
): Promise<WebhookRecord | undefined> {
  const result = await db
    .updateTable('webhooks')
    .set({ lease_owner: holder, lease_until: until })
    .where('id', '=', id)
    .where('lease_until', '<=', now)
    .where('deleted', '=', 0)
    .where('enabled', '=', 1)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) === 0) return undefined
  const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst()
  return row === undefined || row.lease_owner !== holder ? undefined : toWebhook(row)
}

/** Extends a held lease; false when another took it, or the webhook went. */
export async function renewLease(db: Db, id: number, holder: string, until: number) {
  const result = await db
    .updateTable('webhooks')
    .set({ lease_until: until })
    .where('id', '=', id)
    .where('lease_owner', '=', holder)
    .where('deleted', '=', 0)
    .where('enabled', '=', 1)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function releaseLease(db: Db, id: number, holder: string): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ lease_owner: null, lease_until: 0 })
    .where('id', '=', id)
    .where('lease_owner', '=', holder)
    .execute()
}

/** Up to `limit` history rows after `after`, ascending, and the newest seq: one statement. */
export async function historyAfter(
  db: Db,
  after: number,
  limit: number,
): Promise<{ changes: HistoryChange[]; newest: number }> {
  const rows = await db
    .selectFrom(sequence(db))
    .leftJoin(
      db
        .selectFrom('task_history')
        .selectAll()
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(limit)
        .as('h'),
      (join) => join.onTrue(),
    )
    .select(['s.newest', 'h.seq', 'h.task_id', 'h.list_id', 'h.at', 'h.actor', 'h.type'])
    .select(['h.changes', 'h.task'])
    .orderBy('h.seq')
    .execute()
  const changes: HistoryChange[] = []
  for (const row of rows) {
    if (row.seq === null) continue
    changes.push({
      seq: Number(row.seq),
      taskId: Number(row.task_id),
      listId: Number(row.list_id),
      at: Number(row.at),
      actor: row.actor as string,
      type: row.type as HistoryType,
      changes: row.changes as string,
      task: row.task as string,
    })
  }
  return { changes, newest: Number(rows[0]?.newest ?? 0) }
}

/** Moves the cursor under the lease, from where the holder read it. */
export async function advanceCursor(
  db: Db,
  id: number,
  holder: string,
  from: number,
  to: number,
  acknowledged: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({
      cursor: to,
      ...(acknowledged
        ? {
            attempts: 0,
            failing_since: null,
            next_attempt_at: 0,
            status: sql<'active'>`case when enabled = 1 then 'active' else status end`,
          }
        : {}),
    })
    .where('id', '=', id)
    .where('lease_owner', '=', holder)
    .where('cursor', '=', from)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** A failed attempt: one more, the next not before `nextAttemptAt`; the lease let go. */
export async function recordFailure(db: Db, id: number, holder: string, failure: Failure) {
  await db
    .updateTable('webhooks')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      failing_since: failure.failingSince,
      next_attempt_at: failure.nextAttemptAt,
      status: sql<'active'>`case when enabled = 1 then ${failure.status} else status end`,
      lease_owner: null,
      lease_until: 0,
    }))
    .where('id', '=', id)
    .where('lease_owner', '=', holder)
    .execute()
}

/** A 410 Gone: no more deliveries until a PATCH enables it again. */
export async function disableWebhook(db: Db, id: number, holder: string, now: number) {
  await db
    .updateTable('webhooks')
    .set({ enabled: 0, status: 'disabled', updated_at: now, lease_owner: null, lease_until: 0 })
    .where('id', '=', id)
    .where('lease_owner', '=', holder)
    .execute()
}

/** Keeps an attempt, and the newest `keep` of the webhook's only. */
export async function insertDelivery(
  db: Db,
  id: number,
  delivery: DeliveryRecord,
  keep: number,
): Promise<void> {
  await db
    .insertInto('webhook_deliveries')
    .values({
      webhook_id: id,
      seq: delivery.seq,
      at: delivery.at,
      status: delivery.status,
      duration_ms: delivery.durationMs,
      error: delivery.error,
    })
    .execute()
  const oldestKept = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook_id', '=', id)
    .orderBy('id', 'desc')
    .offset(keep - 1)
    .limit(1)
    .executeTakeFirst()
  if (oldestKept === undefined) return
  await db
    .deleteFrom('webhook_deliveries')
    .where('webhook_id', '=', id)
    .where('id', '<', Number(oldestKept.id))
    .execute()
}

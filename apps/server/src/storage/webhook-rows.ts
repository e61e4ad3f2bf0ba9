import type { WebhookEventType } from '@tasklane/contract'
import type { Kysely, Selectable } from 'kysely'
import type { Schema, WebhooksTable } from './tables.js'
import type {
  DeliveryRecord,
  NewWebhookRecord,
  WebhookRecord,
  WebhookUpdate,
} from './webhook-port.js'

type Db = Kysely<Schema>

/** A row of `webhooks` as a record. */
export function toWebhook(row: Selectable<WebhooksTable>): WebhookRecord {
  return {
    id: Number(row.id),
    owner: row.owner,
    caller: JSON.parse(row.caller),
    url: row.url,
    secret: row.secret,
    lists: row.lists === null ? undefined : (JSON.parse(row.lists) as number[]),
    types: JSON.parse(row.types) as WebhookEventType[],
    cursor: Number(row.cursor),
    enabled: Number(row.enabled) === 1,
    status: row.status,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    failingSince: row.failing_since === null ? undefined : Number(row.failing_since),
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
  }
}

/** Stores a new webhook, enabled and active. */
export async function insertWebhook(
  db: Db,
  record: NewWebhookRecord,
  now: number,
): Promise<WebhookRecord> {
  const { id } = await db
    .insertInto('webhooks')
    .values({
      owner: record.owner,
      caller: JSON.stringify(record.caller),
      url: record.url,
      secret: record.secret,
      lists: record.lists === undefined ? null : JSON.stringify(record.lists),
      types: JSON.stringify(record.types),
      cursor: record.cursor,
      enabled: 1,
      status: 'active',
      version: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return (await selectWebhook(db, record.owner, Number(id))) as WebhookRecord
}

/** The owner's webhooks, oldest first. */
export async function selectWebhooks(db: Db, owner: string): Promise<WebhookRecord[]> {
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('owner', '=', owner)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute()
  return rows.map(toWebhook)
}

/** Webhook `id`, if not deleted and (when `owner` is given) made by `owner`. */
export async function selectWebhook(
  db: Db,
  owner: string | undefined,
  id: number,
): Promise<WebhookRecord | undefined> {
  let query = db.selectFrom('webhooks').selectAll().where('id', '=', id).where('deleted', '=', 0)
  if (owner !== undefined) query = query.where('owner', '=', owner)
  const row = await query.executeTakeFirst()
  return row === undefined ? undefined : toWebhook(row)
}

/**
 * Applies a PATCH. Enabling starts over: active, no failures, no wait. Disabling: disabled.
 */
export async function updateWebhook(
  db: Db,
  owner: string,
  id: number,
  update: WebhookUpdate,
  now: number,
): Promise<WebhookRecord | undefined> {
  const result = await db
    .updateTable('webhooks')
    .set((eb) => ({
      updated_at: now,
      version: eb('version', '+', 1),
      ...(update.url === undefined ? {} : { url: update.url }),
      ...(update.lists === undefined
        ? {}
        : { lists: update.lists === null ? null : JSON.stringify(update.lists) }),
      ...(update.types === undefined ? {} : { types: JSON.stringify(update.types) }),
      ...(update.cursor === undefined ? {} : { cursor: update.cursor }),
      ...(update.enabled === true
        ? { enabled: 1, status: 'active', attempts: 0, failing_since: null, next_attempt_at: 0 }
        : update.enabled === false
          ? { enabled: 0, status: 'disabled' }
          : {}),
    }))
    .where('id', '=', id)
    .where('owner', '=', owner)
    .where('deleted', '=', 0)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) === 0) return undefined
  return selectWebhook(db, owner, id)
}

/** Marks the webhook deleted (its lease may still be held a moment) and drops its deliveries. */
export async function deleteWebhook(db: Db, owner: string, id: number): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({ deleted: 1, enabled: 0 })
    .where('id', '=', id)
    .where('owner', '=', owner)
    .where('deleted', '=', 0)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) === 0) return false
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute()
  return true
}

/** The latest `limit` attempts of a webhook, newest first. */
export async function selectDeliveries(
  db: Db,
  id: number,
  limit: number,
): Promise<DeliveryRecord[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['seq', 'at', 'status', 'duration_ms', 'error'])
    .where('webhook_id', '=', id)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => ({
    seq: Number(row.seq),
    at: Number(row.at),
    status: row.status === null ? null : Number(row.status),
    durationMs: Number(row.duration_ms),
    error: row.error,
  }))
}

/**
 * Whether `principal` was a member of list `listId` when it was deleted, after `seq`: the
 * members a list deletion removes get an access change at the deletion's own seq, so a
 * task deleted with its list (at a seq below it, in the same transaction) was theirs to see.
 */
export async function memberAtListDeletion(
  db: Db,
  principal: string,
  listId: number,
  seq: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('lists as l')
    .innerJoin('access_changes as a', (join) =>
      join.onRef('a.list_id', '=', 'l.id').onRef('a.seq', '=', 'l.seq'),
    )
    .select('l.id')
    .where('l.id', '=', listId)
    .where('l.status', '=', 'deleted')
    .where('l.seq', '>', seq)
    .where('a.principal', '=', principal)
    .executeTakeFirst()
  return row !== undefined
}

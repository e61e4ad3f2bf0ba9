import type { WebhookEventType } from '@tasklane/contract'
import { decide, type Rights } from '../domain/rights.js'
import type { HistoryChange, WebhookRecord } from '../storage/open-storage.js'
import type { HistoryType } from '../storage/tables.js'

/** The event each kind of history entry is delivered as: a move is a change too. */
const EVENT_TYPES: Record<HistoryType, WebhookEventType> = {
  created: 'task.created',
  updated: 'task.updated',
  moved: 'task.updated',
  deleted: 'task.deleted',
}

/**
 * Whether a webhook is sent a change: of a type it takes, in a list it names (or any), and
 * one its creator can read now.
 */
export function isSent(webhook: WebhookRecord, change: HistoryChange, rights: Rights): boolean {
  if (!webhook.types.includes(EVENT_TYPES[change.type])) return false
  if (webhook.lists !== undefined && !webhook.lists.includes(change.listId)) return false
  return decide(rights, change.listId, 'read').verdict !== 'hidden'
}

/**
 * The body of a delivery: `{ type, seq, timestamp, actor, data, changes }`, where `data` is
 * the task after the change, or `{ id, version }` for a delete.
 */
export function payloadOf(change: HistoryChange): string {
  const task = JSON.parse(change.task) as Record<string, unknown>
  return JSON.stringify({
    type: EVENT_TYPES[change.type],
    seq: change.seq,
    timestamp: new Date(change.at).toISOString(),
    actor: change.actor,
    data: { id: change.taskId, ...task },
    changes: JSON.parse(change.changes),
  })
}

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
 * one its creator can read now. A delete its creator cannot read may still be sent: when
 * the task went with its list, to those who were the list's members then (`'if-member'`,
 * the deliverer asks the storage).
 */
export function sends(
  webhook: WebhookRecord,
  change: HistoryChange,
  rights: Rights,
): 'yes' | 'no' | 'if-member' {
  if (!webhook.types.includes(EVENT_TYPES[change.type])) return 'no'
  if (webhook.lists !== undefined && !webhook.lists.includes(change.listId)) return 'no'
  if (decide(rights, change.listId, 'read').verdict !== 'hidden') return 'yes'
  const { lists } = webhook.caller
  const narrowedAway = lists !== undefined && !lists.includes(change.listId)
  return change.type === 'deleted' && !narrowedAway ? 'if-member' : 'no'
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

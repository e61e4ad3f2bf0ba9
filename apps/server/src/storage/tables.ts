import type { Generated } from 'kysely'

/** A row's state: a task's status, or `deleted` once it is gone (its row stays as a tombstone). */
export type RowStatus = 'open' | 'done' | 'deleted'

/**
 * Row of the `tasks` table. A deleted task keeps its row (id, version, seq) as the change
 * feed's tombstone, with its name emptied and its tag removed. `seq` is the change sequence
 * number of the row's latest change; `prev_*` describe the row as it was before that change
 * (`prev_seq` 0: the change created it), so the feed can tell a filtered view whether a
 * task entered or left it.
 */
export interface TasksTable {
  id: Generated<number>
  name: string
  tag: string | null
  status: RowStatus
  version: number
  /** Milliseconds since the epoch. */
  created_at: number
  updated_at: number
  seq: number
  prev_seq: number
  prev_tag: string | null
  prev_status: RowStatus | null
  /** The list the task is in. */
  list_id: number
  /** The principals who created it and changed it last. */
  created_by: string
  updated_by: string
  /** The list it was in before its latest change (null when that change created it). */
  prev_list_id: number | null
  /**
   * Its priority and due before its latest change; prev_priority is null when that change
   * created it, or was made before they were kept (migration 0010).
   */
  prev_priority: number | null
  prev_due: string | null
  /** The seq of the change that created it; 0 when unknown (a task older than lists). */
  created_seq: number
  notes: string | null
  /** The due as sent; with its day (a day's) or instant (a moment's), and its sort key. */
  due: string | null
  due_day: string | null
  due_at: number | null
  due_key: number | null
  /** 0 none, 1 low, 2 medium, 3 high. */
  priority: number
  /** When it became done (ms); null while open. */
  completed_at: number | null
  /** Its place in its list's manual order: fractional keys compared as bytes. */
  position: string | null
  /** Its words as search compares them (domain/search-text.ts). */
  search: string
}

/** A list's state: live, or deleted (its row stays, so its id is never reused). */
export type ListStatus = 'live' | 'deleted'

/** Row of `lists`: the unit of sharing; every task is in one. */
export interface ListsTable {
  id: Generated<number>
  name: string
  status: ListStatus
  version: number
  created_at: number
  updated_at: number
  created_by: string
  updated_by: string
  /** The seq of the list's latest change (0: it has not changed since lists exist). */
  seq: number
  /** The seq of the latest write that placed a task in its manual order. */
  order_seq: number
}

/** Row of `members`: a principal's role in a list. A removed member's row goes. */
export interface MembersTable {
  list_id: number
  principal: string
  role: 'viewer' | 'editor' | 'owner'
  /** The seq of the change that gave this role. */
  seq: number
}

/**
 * Row of `access_changes`: at `seq`, `principal` gained or lost the right to read `list_id`
 * (a member added or removed, a list deleted). A change feed of that principal that has
 * sent every change before `seq` cannot go on with the rights it started with.
 */
export interface AccessChangesTable {
  seq: number
  principal: string
  list_id: number
}

/** Row of `tokens`: an access token, its secret kept only as a SHA-256 digest (hex). */
export interface TokensTable {
  id: Generated<number>
  name: string
  principal: string
  role: 'read' | 'write' | 'admin'
  /** JSON array of list ids, or null: every list of its principal. */
  lists: string | null
  hash: string
  created_at: number
  created_by: string
  /** Milliseconds since the epoch, or null: never. */
  expires_at: number | null
  /** When it was revoked, or null while it stands. */
  revoked_at: number | null
  seq: number
}

/**
 * The one row of `change_sequence`: the newest seq, and the seq of the newest change to
 * anyone's rights (memberships, list deletions, tokens). Every write takes its seqs here.
 */
export interface ChangeSequenceTable {
  id: number
  seq: number
  access_seq: number
}

/**
 * Row of `idempotency_keys`: a key, the digest of the request it came with (method, task and
 * body), and the response it got: the task's id, the seq of the change, and the task as it
 * was answered without its id (JSON; null for a delete, which answers no body).
 */
export interface IdempotencyKeysTable {
  /** The key as sent, preceded by `<principal> ` unless an admin principal sent it. */
  key: string
  fingerprint: string
  /** The task or list the request wrote. */
  target_id: number
  created_at: number
  seq: number
  response: string | null
}

/** Row of `write_probe`: the one row readiness rewrites to learn that writes commit. */
export interface WriteProbeTable {
  id: number
  probes: number
}

/** What a history entry records: a task created, changed, moved to another place, or deleted. */
export type HistoryType = 'created' | 'updated' | 'moved' | 'deleted'

/**
 * Row of `task_history`: one change of a task, at its seq, written with the change. `changes`
 * is `{ field: { from, to } }` as JSON; `task` what a webhook delivers of it, as JSON: the task
 * after it without its id, or `{ version }` for a delete.
 */
export interface TaskHistoryTable {
  seq: number
  task_id: number
  list_id: number
  at: number
  actor: string
  type: HistoryType
  changes: string
  task: string
}

/** A webhook's state: delivering, failing for 24 h or more (still retried), or disabled. */
export type WebhookStatus = 'active' | 'failing' | 'disabled'

/**
 * Row of `webhooks`. `owner` is the principal that created it, `caller` the credential's
 * rights it delivers with (JSON); `cursor` the seq of the last change it delivered or
 * skipped; `lease_*` which instance delivers it, until when.
 */
export interface WebhooksTable {
  id: Generated<number>
  owner: string
  caller: string
  url: string
  secret: string
  /** JSON array of list ids, or null: every list its owner can read. */
  lists: string | null
  /** JSON array of the event types it is sent. */
  types: string
  cursor: number
  enabled: number
  status: WebhookStatus
  version: number
  created_at: number
  updated_at: number
  failing_since: number | null
  attempts: Generated<number>
  next_attempt_at: Generated<number>
  lease_owner: string | null
  lease_until: Generated<number>
  deleted: Generated<number>
}

/** Row of `webhook_deliveries`: one attempt, its answer's status (null: none) and error. */
export interface WebhookDeliveriesTable {
  id: Generated<number>
  webhook_id: number
  seq: number
  at: number
  status: number | null
  duration_ms: number
  error: string | null
}

/** The database as Kysely sees it. */
export interface Schema {
  tasks: TasksTable
  lists: ListsTable
  members: MembersTable
  access_changes: AccessChangesTable
  tokens: TokensTable
  change_sequence: ChangeSequenceTable
  idempotency_keys: IdempotencyKeysTable
  write_probe: WriteProbeTable
  task_history: TaskHistoryTable
  webhooks: WebhooksTable
  webhook_deliveries: WebhookDeliveriesTable
}

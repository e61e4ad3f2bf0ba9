// The storage of webhooks: their records, the lease that lets one instance deliver each at a
// time, their cursor over `task_history`, and their latest attempts (webhook-rows.ts).
import type { WebhookEventType } from '@tasklane/contract'
import type { Caller } from '../domain/rights.js'
import type { HistoryType, WebhookStatus } from './tables.js'

/** A webhook to store. */
export interface NewWebhookRecord {
  /** The principal that made it: the only one that sees it. */
  readonly owner: string
  /** The credential it delivers with: its creator's rights, re-read at each delivery. */
  readonly caller: Caller
  readonly url: string
  /** `whsec_` and the base64 of 32 random bytes. */
  readonly secret: string
  readonly lists: readonly number[] | undefined
  readonly types: readonly WebhookEventType[]
  /** The seq after which it delivers. */
  readonly cursor: number
}

/** A webhook as stored. */
export interface WebhookRecord extends NewWebhookRecord {
  readonly id: number
  readonly enabled: boolean
  readonly status: WebhookStatus
  readonly createdAt: number
  readonly updatedAt: number
  /** When its deliveries started failing; undefined while the last one succeeded. */
  readonly failingSince: number | undefined
  /** Failed attempts in a row. */
  readonly attempts: number
  /** Not delivered before this time (ms): its backoff. */
  readonly nextAttemptAt: number
}

/** What a PATCH changes; undefined fields stay. `lists: null` means every list. */
export interface WebhookUpdate {
  readonly url?: string | undefined
  readonly lists?: readonly number[] | null | undefined
  readonly types?: readonly WebhookEventType[] | undefined
  readonly enabled?: boolean | undefined
  readonly cursor?: number | undefined
}

/** One change of `task_history`, as a webhook delivers it. */
export interface HistoryChange {
  readonly seq: number
  readonly taskId: number
  readonly listId: number
  readonly at: number
  readonly actor: string
  readonly type: HistoryType
  /** `{ field: { from, to } }`, as JSON text. */
  readonly changes: string
  /** The task after the change without its id, or `{ version }` for a delete: JSON text. */
  readonly task: string
}

/** One delivery attempt. */
export interface DeliveryRecord {
  readonly seq: number
  readonly at: number
  readonly status: number | null
  readonly durationMs: number
  readonly error: string | null
}

/** How a failed attempt leaves the webhook: when to try again, since when it fails. */
export interface Failure {
  readonly nextAttemptAt: number
  readonly failingSince: number
  readonly status: WebhookStatus
}

/** How far the enabled webhooks are behind (the metrics). */
export interface WebhookBacklog {
  /** The largest gap between the newest seq and an enabled webhook's cursor (0: none). */
  readonly maxLag: number
  /** Enabled webhooks whose cursor is behind the newest seq. */
  readonly behind: number
  /** Enabled webhooks whose last attempt failed: waiting out a backoff or retrying. */
  readonly retrying: number
}

/** The webhooks of the Storage port. */
export interface WebhookStorage {
  create(record: NewWebhookRecord, now: number): Promise<WebhookRecord>
  /** The owner's webhooks, oldest first. */
  list(owner: string): Promise<WebhookRecord[]>
  /** The webhook `id` when `owner` made it (and it is not deleted); any owner when undefined. */
  get(owner: string | undefined, id: number): Promise<WebhookRecord | undefined>
  /** Applies a PATCH; undefined when the owner has no such webhook. */
  update(
    owner: string,
    id: number,
    update: WebhookUpdate,
    now: number,
  ): Promise<WebhookRecord | undefined>
  /** Deletes the webhook and its deliveries; false when the owner has no such webhook. */
  delete(owner: string, id: number): Promise<boolean>
  /** The latest `limit` attempts of a webhook, newest first. */
  deliveries(id: number, limit: number): Promise<DeliveryRecord[]>
  /**
   * Up to `limit` webhooks that have something to deliver now: enabled, past their backoff,
   * not leased, their cursor behind the newest seq.
   */
  due(now: number, limit: number): Promise<number[]>
  /** Takes the lease of webhook `id` until `until` when none holds it; the webhook, or undefined. */
  claim(id: number, holder: string, now: number, until: number): Promise<WebhookRecord | undefined>
  /** Extends a lease this holder has; false when it lost it. */
  renew(id: number, holder: string, until: number): Promise<boolean>
  /** Lets go of a lease. */
  release(id: number, holder: string): Promise<void>
  /**
   * Up to `limit` changes after `after`, ascending, and the newest seq of the snapshot they
   * were read in (every change up to it is among them or before them).
   */
  changesAfter(after: number, limit: number): Promise<{ changes: HistoryChange[]; newest: number }>
  /**
   * Moves the cursor from `from` to `to` under the lease; when `acknowledged`, the failures
   * are over (attempts 0, status active). False when the lease or the cursor changed.
   */
  advance(
    id: number,
    holder: string,
    from: number,
    to: number,
    acknowledged: boolean,
  ): Promise<boolean>
  /** Records a failed attempt's consequence and lets go of the lease. */
  failed(id: number, holder: string, failure: Failure): Promise<void>
  /** A 410: disabled, and the lease let go. */
  disable(id: number, holder: string, now: number): Promise<void>
  /**
   * Whether `principal` was a member of list `listId` when the list was deleted, after
   * `seq` (a task deleted with its list is delivered to its former readers).
   */
  memberAtListDeletion(principal: string, listId: number, seq: number): Promise<boolean>
  /** How far the enabled webhooks are behind, for the metrics. */
  backlog(): Promise<WebhookBacklog>
  /** Keeps an attempt, and only the newest `keep` of the webhook's. */
  recordDelivery(id: number, delivery: DeliveryRecord, keep: number): Promise<void>
}

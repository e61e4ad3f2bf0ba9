import type * as contract from '@tasklane/contract'
import type { DeletedTask, Task } from './types.js'

// Spelled out, as types.ts does; the checks at the end keep them equal to the contract's.

/** The events a webhook may be sent. */
export type WebhookEventType = 'task.created' | 'task.updated' | 'task.deleted'

/** `active`; `failing` (24 h of failed deliveries, still retried hourly); `disabled`. */
export type WebhookStatus = 'active' | 'failing' | 'disabled'

/** A webhook to make: the body of `createWebhook`. */
export interface NewWebhook {
  /** An http or https URL, not of a private, loopback, link-local or multicast address. */
  url: string
  /** Only changes of tasks in these lists (1–100 ids); omitted: every list you read. */
  lists?: number[]
  /** Only these events; omitted: all three. */
  types?: WebhookEventType[]
  /** Deliver the changes after this seq; omitted: after the newest change now. */
  after?: number
}

/** What `updateWebhook` changes; `lists: null` means every list. */
export interface WebhookPatch {
  url?: string
  lists?: number[] | null
  types?: WebhookEventType[]
  /** false stops deliveries; true starts them again at once. */
  enabled?: boolean
  /** Deliver the changes after this seq next: a smaller one replays them. */
  cursor?: number
}

/** A webhook, never its secret. */
export interface Webhook {
  /** Identifier of the webhook. */
  id: number
  url: string
  /** Only these lists; absent: every list its creator reads. */
  lists?: number[]
  types: WebhookEventType[]
  enabled: boolean
  status: WebhookStatus
  /** The seq of the last change it acknowledged or was not sent. */
  cursor: number
  /** RFC 3339, UTC, milliseconds. */
  createdAt: string
  updatedAt: string
  /** When its deliveries started failing; absent while the last one succeeded. */
  failingSince?: string
}

/** A webhook as `createWebhook` answers it, with its signing secret, shown this once. */
export interface CreatedWebhook extends Webhook {
  /** `whsec_…`: what `verifyWebhook` checks each delivery with. Never shown again. */
  secret: string
}

/** One delivery attempt. */
export interface WebhookDelivery {
  /** The seq of the change it delivered. */
  seq: number
  /** When the attempt started. */
  at: string
  /** The receiver's HTTP status; null when none came (refused, timed out). */
  status: number | null
  durationMs: number
  /** Why it failed; null when acknowledged. */
  error: string | null
}

/** The body of a delivery, as `verifyWebhook` returns it. */
export interface WebhookEvent {
  type: WebhookEventType
  /** The seq of the change (the change feed's). */
  seq: number
  /** When the change was committed. */
  timestamp: string
  /** Who made it. */
  actor: string
  /** The task after the change; `{ id, version }` for a delete. */
  data: Task | DeletedTask
  /** Each field it set, with its value before and after. */
  changes: Record<string, { from: unknown; to: unknown }>
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Expect<T extends true> = T
type _SameAsContract = [
  Expect<Same<WebhookEventType, contract.WebhookEventType>>,
  Expect<Same<WebhookStatus, contract.WebhookStatus>>,
  Expect<Same<NewWebhook, contract.NewWebhook>>,
  Expect<Same<WebhookPatch, contract.WebhookPatch>>,
  Expect<Same<Webhook, contract.Webhook>>,
  Expect<Same<CreatedWebhook, contract.CreatedWebhook>>,
  Expect<Same<WebhookDelivery, contract.WebhookDelivery>>,
]

import { type NewWebhook, WEBHOOK_EVENT_TYPES, type WebhookPatch } from '@tasklane/contract'
import type { RightsCache } from '../access/rights-cache.js'
import {
  BadRequestError,
  ListNotFoundError,
  WebhookNotFoundError,
} from '../domain/domain-errors.js'
import { type Caller, decide } from '../domain/rights.js'
import type { DeliveryRecord, Storage, WebhookRecord } from '../storage/open-storage.js'
import { type AllowedHosts, refusalOf } from './address-policy.js'
import { newWebhookSecret } from './signature.js'

/** Attempts kept of each webhook, and listed by GET /webhooks/{id}/deliveries. */
export const KEPT_DELIVERIES = 100

/** A webhook just made: its record, and its secret, shown this once. */
export interface MadeWebhook {
  readonly record: WebhookRecord
  readonly secret: string
}

/**
 * Webhooks made, listed, changed and deleted through the API. Each belongs to the principal
 * that made it (another is told it does not exist) and delivers what that principal can
 * read at the time of each delivery (the deliverer checks); its URL must be http(s) and not
 * name an address of the server's own network.
 */
export class WebhookService {
  readonly #storage: Storage
  readonly #rights: RightsCache
  readonly #allowed: AllowedHosts

  constructor(storage: Storage, rights: RightsCache, allowed: AllowedHosts) {
    this.#storage = storage
    this.#rights = rights
    this.#allowed = allowed
  }

  /** POST /webhooks: starts after `after`, or after the newest change now. */
  async create(caller: Caller, body: NewWebhook, now = Date.now()): Promise<MadeWebhook> {
    this.#checkUrl(body.url)
    if (body.lists !== undefined) await this.#checkLists(caller, body.lists)
    const secret = newWebhookSecret()
    const cursor = body.after ?? (await this.#storage.newestSeq())
    const record = await this.#storage.webhooks.create(
      {
        owner: caller.principal,
        caller,
        url: body.url,
        secret,
        lists: body.lists,
        types: body.types ?? [...WEBHOOK_EVENT_TYPES],
        cursor,
      },
      now,
    )
    return { record, secret }
  }

  /** GET /webhooks: the caller's own. */
  list(caller: Caller): Promise<WebhookRecord[]> {
    return this.#storage.webhooks.list(caller.principal)
  }

  /** GET /webhooks/{id}. */
  async get(caller: Caller, id: number): Promise<WebhookRecord> {
    const record = await this.#storage.webhooks.get(caller.principal, id)
    if (record === undefined) throw new WebhookNotFoundError(id)
    return record
  }

  /** PATCH /webhooks/{id}. */
  async update(
    caller: Caller,
    id: number,
    patch: WebhookPatch,
    now = Date.now(),
  ): Promise<WebhookRecord> {
    if (patch.url !== undefined) this.#checkUrl(patch.url)
    await this.get(caller, id)
    if (patch.lists != null) await this.#checkLists(caller, patch.lists)
    const record = await this.#storage.webhooks.update(caller.principal, id, patch, now)
    if (record === undefined) throw new WebhookNotFoundError(id)
    return record
  }

  /** DELETE /webhooks/{id}. */
  async delete(caller: Caller, id: number): Promise<void> {
    if (!(await this.#storage.webhooks.delete(caller.principal, id))) {
      throw new WebhookNotFoundError(id)
    }
  }

  /** GET /webhooks/{id}/deliveries: the latest attempts, newest first. */
  async deliveries(caller: Caller, id: number): Promise<DeliveryRecord[]> {
    await this.get(caller, id)
    return this.#storage.webhooks.deliveries(id, KEPT_DELIVERIES)
  }

  #checkUrl(url: string): void {
    const refusal = refusalOf(url, this.#allowed)
    if (refusal !== undefined) throw new BadRequestError(refusal)
  }

  /** Every list named must be one the caller reads now. */
  async #checkLists(caller: Caller, lists: readonly number[]): Promise<void> {
    const rights = await this.#rights.rightsOf(caller)
    for (const id of lists) {
      const hidden = decide(rights, id, 'read').verdict === 'hidden'
      if (hidden || (await this.#storage.access.list(id)).value === undefined) {
        throw new ListNotFoundError(id)
      }
    }
  }
}

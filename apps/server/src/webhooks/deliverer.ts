import { randomUUID } from 'node:crypto'
import type { lookup } from 'node:dns'
import type { RightsCache } from '../access/rights-cache.js'
import type { Log } from '../domain/log.js'
import type { HistoryChange, Storage, WebhookRecord } from '../storage/open-storage.js'
import type { AllowedHosts } from './address-policy.js'
import { type Backoff, backoffDelay, WEBHOOK_BACKOFF } from './backoff.js'
import { DeliveryError, safePost } from './safe-fetch.js'
import { signWebhook } from './signature.js'
import { payloadOf, sends } from './webhook-payload.js'
import { KEPT_DELIVERIES } from './webhook-service.js'

/** History rows read at once while looking for the next change to send. */
const READ_AHEAD = 100

/** Webhooks one instance delivers at once (each one change at a time). */
const MAX_RUNNING = 16

/** How an attempt ended: a 2xx, anything else (retried after a backoff), or a 410. */
export type DeliveryOutcome = 'acknowledged' | 'failed' | 'gone'

/** How the deliverer works; tests shorten the times. */
export interface DelivererOptions {
  readonly allowed: AllowedHosts
  readonly log: Log
  /** This instance's name on the leases it takes (default: a random UUID). */
  readonly holder?: string | undefined
  /** Backoff after failures (default 5 s doubling to 1 h). */
  readonly backoff?: Backoff | undefined
  /** How long a receiver has to answer (default 10 s). */
  readonly timeoutMs?: number | undefined
  /** After how long failing in a row a webhook shows "failing" (default 24 h). */
  readonly failingAfterMs?: number | undefined
  /** How often due webhooks are looked for (default 1 s). */
  readonly pollMs?: number | undefined
  /** How long a lease lasts without renewal (default twice the timeout and 10 s). */
  readonly leaseMs?: number | undefined
  /** DNS resolution (tests map names to addresses). */
  readonly lookup?: typeof lookup | undefined
  /** Told how each attempt ended (the metrics). */
  readonly onOutcome?: ((outcome: DeliveryOutcome) => void) | undefined
}

/**
 * Delivers every webhook's changes: every `pollMs` it looks for webhooks with something to
 * send, takes the lease of each (one instance at a time across all, a row in the database
 * with an expiry), and posts its changes after its cursor one at a time, in seq order. A 2xx
 * moves the cursor on; anything else waits out a backoff and tries the same change again;
 * a 410 disables the webhook. The creator's rights are read anew for each change.
 */
export class WebhookDeliverer {
  readonly #storage: Storage
  readonly #rights: RightsCache
  readonly #options: DelivererOptions
  readonly #holder: string
  readonly #timeoutMs: number
  readonly #leaseMs: number
  readonly #running = new Map<number, Promise<void>>()
  readonly #abort = new AbortController()
  #timer: NodeJS.Timeout | undefined
  #polling: Promise<void> | undefined
  #stopped = false

  constructor(storage: Storage, rights: RightsCache, options: DelivererOptions) {
    this.#storage = storage
    this.#rights = rights
    this.#options = options
    this.#holder = options.holder ?? randomUUID()
    this.#timeoutMs = options.timeoutMs ?? 10_000
    this.#leaseMs = options.leaseMs ?? 2 * this.#timeoutMs + 10_000
  }

  /** Starts looking for work. */
  start(): void {
    if (this.#stopped || this.#timer !== undefined) return
    this.#timer = setInterval(() => this.poll(), this.#options.pollMs ?? 1_000).unref()
    this.poll()
  }

  /** Looks for due webhooks now (also every poll period). */
  poll(): void {
    if (this.#stopped) return
    this.#polling ??= this.#findWork()
      .catch((error: unknown) => this.#options.log.debug({ err: error }, 'Webhooks: no poll.'))
      .finally(() => {
        this.#polling = undefined
      })
  }

  /** Stops: no new delivery; one under way is abandoned (its change is sent again later). */
  async stop(): Promise<void> {
    this.#stopped = true
    clearInterval(this.#timer)
    this.#abort.abort()
    await this.#polling
    await Promise.all(this.#running.values())
  }

  async #findWork(): Promise<void> {
    const room = MAX_RUNNING - this.#running.size
    if (room <= 0) return
    const now = Date.now()
    for (const id of await this.#storage.webhooks.due(now, room)) {
      if (this.#stopped || this.#running.has(id)) continue
      const until = now + this.#leaseMs
      const webhook = await this.#storage.webhooks.claim(id, this.#holder, now, until)
      if (webhook === undefined) continue
      const run = this.#deliverAll(webhook, until)
        .catch((error: unknown) => {
          this.#options.log.warn({ err: error, webhook: id }, 'Webhook delivery stopped.')
          return this.#storage.webhooks.release(id, this.#holder).catch(() => {})
        })
        .finally(() => this.#running.delete(id))
      this.#running.set(id, run)
    }
  }

  /** Sends the webhook's changes while it holds the lease and they are acknowledged. */
  async #deliverAll(claimed: WebhookRecord, claimedUntil: number): Promise<void> {
    const { webhooks } = this.#storage
    const id = claimed.id
    let webhook: WebhookRecord | undefined = claimed
    // When the lease runs out: renewed (a write) only once half of it has gone, which
    // leaves more than a delivery's timeout.
    let leaseUntil = claimedUntil
    while (webhook?.enabled && !this.#stopped) {
      const next = await this.#nextChange(webhook)
      // A PATCH moved the cursor: the next poll starts from there.
      if (next === 'lost' || next === undefined) break
      if (leaseUntil - Date.now() < this.#leaseMs / 2) {
        leaseUntil = Date.now() + this.#leaseMs
        if (!(await webhooks.renew(id, this.#holder, leaseUntil))) return
      }
      const outcome = await this.#deliver(webhook, next.change, next.cursor)
      // A failure let go of the lease with its backoff; a stop lets go of it here, so that
      // another instance need not wait for it to run out.
      if (outcome === 'failed') return
      if (outcome === 'stopped') break
      webhook = await webhooks.get(undefined, id)
    }
    await webhooks.release(id, this.#holder)
  }

  /**
   * The next change to send after the cursor; the cursor moved past those not sent (filtered
   * out, unreadable), and where the cursor now stands. Undefined when none is left; 'lost'
   * when the cursor or lease changed.
   */
  async #nextChange(
    webhook: WebhookRecord,
  ): Promise<{ change: HistoryChange; cursor: number } | undefined | 'lost'> {
    const { webhooks } = this.#storage
    let cursor = webhook.cursor
    for (;;) {
      const { changes, newest } = await webhooks.changesAfter(cursor, READ_AHEAD)
      const rights = await this.#rights.rightsOf(webhook.caller)
      let skipTo = cursor
      let found: HistoryChange | undefined
      // Lists deleted whose members the creator was, by list id (a list's tasks go together).
      const wasMember = new Map<number, boolean>()
      for (const change of changes) {
        let sent = sends(webhook, change, rights)
        if (sent === 'if-member') {
          let member = wasMember.get(change.listId)
          if (member === undefined) {
            const { principal } = webhook.caller
            member = await webhooks.memberAtListDeletion(principal, change.listId, change.seq)
            wasMember.set(change.listId, member)
          }
          sent = member ? 'yes' : 'no'
        }
        if (sent === 'yes') {
          found = change
          break
        }
        skipTo = change.seq
      }
      // Every change up to `newest` was in the read: none left to send below it.
      if (found === undefined && changes.length < READ_AHEAD) skipTo = Math.max(skipTo, newest)
      if (skipTo !== cursor) {
        if (!(await webhooks.advance(webhook.id, this.#holder, cursor, skipTo, false))) {
          return 'lost'
        }
        cursor = skipTo
      }
      if (found !== undefined) return { change: found, cursor }
      if (changes.length < READ_AHEAD) return undefined
    }
  }

  /** One attempt: posted, recorded, and the webhook moved on, backed off or disabled. */
  async #deliver(
    webhook: WebhookRecord,
    change: HistoryChange,
    cursor: number,
  ): Promise<'acknowledged' | 'failed' | 'stopped'> {
    const { webhooks } = this.#storage
    const body = payloadOf(change)
    const messageId = `${webhook.id}_${change.seq}`
    const at = Date.now()
    const timestamp = Math.floor(at / 1000)
    let status: number | null = null
    let error: string | null = null
    try {
      status = await safePost(webhook.url, {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'tasklane-webhooks',
          'webhook-id': messageId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(webhook.secret, messageId, timestamp, body),
        },
        body,
        timeoutMs: this.#timeoutMs,
        allowed: this.#options.allowed,
        lookup: this.#options.lookup,
        signal: this.#abort.signal,
      })
      if (status < 200 || status > 299) error = `The receiver answered ${status}.`
    } catch (failure) {
      if (this.#stopped) return 'stopped'
      error = failure instanceof DeliveryError ? failure.message : String(failure)
    }
    const now = Date.now()
    await webhooks.recordDelivery(
      webhook.id,
      { seq: change.seq, at, status, durationMs: now - at, error },
      KEPT_DELIVERIES,
    )
    this.#options.onOutcome?.(error === null ? 'acknowledged' : status === 410 ? 'gone' : 'failed')
    if (error === null) {
      // The cursor may have been moved by a PATCH meanwhile: then the next run starts there.
      return (await webhooks.advance(webhook.id, this.#holder, cursor, change.seq, true))
        ? 'acknowledged'
        : 'stopped'
    }
    if (status === 410) {
      await webhooks.disable(webhook.id, this.#holder, now)
      this.#options.log.warn(
        { webhook: webhook.id },
        'Webhook disabled: its receiver answered 410.',
      )
      return 'failed'
    }
    const attempts = webhook.attempts + 1
    const failingSince = webhook.failingSince ?? at
    const failingAfter = this.#options.failingAfterMs ?? 24 * 60 * 60 * 1000
    await webhooks.failed(webhook.id, this.#holder, {
      failingSince,
      nextAttemptAt: now + backoffDelay(this.#options.backoff ?? WEBHOOK_BACKOFF, attempts),
      status: now - failingSince >= failingAfter ? 'failing' : 'active',
    })
    this.#options.log.info(
      { webhook: webhook.id, seq: change.seq, attempts, error },
      'Webhook delivery failed; it will be retried.',
    )
    return 'failed'
  }
}

import { Authenticator } from './access/authenticator.js'
import { JwtVerifier } from './access/jwt-verifier.js'
import { RightsCache } from './access/rights-cache.js'
import { TokenService } from './access/token-service.js'
import { KeysInFlight } from './domain/keys-in-flight.js'
import type { Log } from './domain/log.js'
import type { Periodic } from './domain/periodic.js'
import { historyPrune, TaskHistoryReads } from './history/task-history.js'
import { ListService } from './lists/list-service.js'
import type { AppSettings } from './settings/parse.js'
import type { Storage } from './storage/open-storage.js'
import { Feed } from './tasks/feed.js'
import { idempotencyPurge } from './tasks/idempotency-purge.js'
import { Listing } from './tasks/listing.js'
import { TaskReads } from './tasks/task-reads.js'
import { MAX_BATCH, TaskWriter, type WriterObserver } from './tasks/task-writer.js'
import { TurnBudget } from './tasks/turn-budget.js'
import { AllowedHosts } from './webhooks/address-policy.js'
import {
  type DelivererOptions,
  type DeliveryOutcome,
  WebhookDeliverer,
} from './webhooks/deliverer.js'
import { WebhookService } from './webhooks/webhook-service.js'

/**
 * Chunks (of a streamed listing or a feed's backlog) read in one turn of the event loop, by
 * all streams together: however many stream at once, a request that arrives meanwhile waits
 * a few short turns, not one long one.
 */
const CHUNKS_PER_TURN = 4

/** What the services report as they work (the metrics plugin listens); all optional. */
export interface ServiceObservers {
  readonly writer?: WriterObserver | undefined
  /** The change feed's subscriber count, each time it changes. */
  readonly onSubscribers?: ((count: number) => void) | undefined
  /** How each webhook delivery attempt ended. */
  readonly onWebhookDelivery?: ((outcome: DeliveryOutcome) => void) | undefined
}

/** What the services are built from: the settings, the storage, where to log and report. */
export interface ServiceOptions {
  readonly settings: AppSettings
  readonly storage: Storage
  readonly log: Log
  readonly observers?: ServiceObservers
  /** Interval of the change feed's keep-alive comments, in ms (tests shorten it). */
  readonly keepAliveMs?: number | undefined
  /** The webhook deliverer's times (tests shorten them), and its DNS resolution. */
  readonly webhookDelivery?: Omit<DelivererOptions, 'allowed' | 'log'> | undefined
}

/**
 * Who a request is: the credentials the settings switch on (API_TOKEN, JWTs; with either,
 * access tokens), or none (open mode). Built before the plugins, which authenticate with it.
 */
export function authenticatorFor(settings: AppSettings, storage: Storage): Authenticator {
  const { authJwtSecret: secret, authJwksUrl: jwksUrl } = settings
  const jwt =
    secret === undefined && jwksUrl === undefined
      ? undefined
      : new JwtVerifier({
          secret,
          jwksUrl,
          issuer: settings.authJwtIssuer,
          audience: settings.authJwtAudience,
        })
  return new Authenticator(storage, { apiToken: settings.apiToken, jwt })
}

/**
 * The server's services, built once where the app is assembled: the group-commit writer,
 * the reads of tasks as each caller may make them, the change feed, lists and members,
 * access tokens, tasks' history, webhooks and their delivery, and the background purges (Idempotency-Keys, history). None knows HTTP;
 * the route files map requests to them.
 */
export class Services {
  readonly writer: TaskWriter
  readonly reads: TaskReads
  readonly feed: Feed
  readonly lists: ListService
  readonly tokens: TokenService
  readonly rights: RightsCache
  readonly history: TaskHistoryReads
  readonly webhooks: WebhookService
  /** Posts the changes of every webhook, one at a time each, across instances. */
  readonly deliverer: WebhookDeliverer
  /** The background purges: expired Idempotency-Keys, history past its retention. */
  readonly #purges: Periodic[]

  constructor(
    authenticator: Authenticator,
    { settings, storage, log, observers = {}, keepAliveMs, webhookDelivery }: ServiceOptions,
  ) {
    const keysInFlight = new KeysInFlight()
    this.rights = new RightsCache(storage)
    this.writer = new TaskWriter(storage, {
      maxBatch: settings.groupCommit ? MAX_BATCH : 1,
      pipeline: settings.groupCommit ? storage.batchesInFlight : 1,
      observer: observers.writer,
      log,
      keysInFlight,
    })
    // Streamed listings and feed backlogs take turns on the event loop, together.
    const budget = new TurnBudget(CHUNKS_PER_TURN)
    const listing = new Listing(storage, { maxStreams: settings.maxStreams, budget })
    this.reads = new TaskReads(storage, listing, this.rights)
    this.feed = new Feed(storage, {
      maxSubscribers: settings.maxSubscribers,
      keepAliveMs,
      log,
      onSubscribers: observers.onSubscribers,
      rights: this.rights,
      authenticator,
      budget,
    })
    this.lists = new ListService(storage, this.rights, keysInFlight)
    this.tokens = new TokenService(storage, authenticator)
    this.history = new TaskHistoryReads(storage, this.rights)
    const allowed = new AllowedHosts(settings.webhookAllowedHosts)
    this.webhooks = new WebhookService(storage, this.rights, allowed)
    this.deliverer = new WebhookDeliverer(storage, this.rights, {
      ...webhookDelivery,
      allowed,
      log,
      onOutcome: observers.onWebhookDelivery,
    })
    this.#purges = [
      idempotencyPurge(storage, log, settings.idempotencyMaxKeys),
      historyPrune(storage, log, settings.historyRetentionDays),
    ]
  }

  /** Starts the background work, once the app is ready to serve. */
  async start(): Promise<void> {
    await Promise.all(this.#purges.map((purge) => purge.start()))
    this.deliverer.start()
  }

  /** Ends the open streams that would never end by themselves (the feed's), before the drain. */
  endStreams(): void {
    this.feed.close()
  }

  /** Stops the background work and waits for the writes in progress. */
  async close(): Promise<void> {
    for (const purge of this.#purges) purge.stop()
    await this.deliverer.stop()
    await this.writer.close()
  }
}

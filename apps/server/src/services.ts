import type { Log } from './domain/log.js'
import type { Settings } from './settings/parse.js'
import type { Storage } from './storage/open-storage.js'
import { Feed } from './tasks/feed.js'
import { IdempotencyPurge } from './tasks/idempotency-purge.js'
import { Listing } from './tasks/listing.js'
import { MAX_BATCH, TaskWriter, type WriterObserver } from './tasks/task-writer.js'

/** What the services report as they work (the metrics plugin listens); all optional. */
export interface ServiceObservers {
  readonly writer?: WriterObserver | undefined
  /** The change feed's subscriber count, each time it changes. */
  readonly onSubscribers?: ((count: number) => void) | undefined
}

/** What the services are built from: the settings, the storage, where to log and report. */
export interface ServiceOptions {
  readonly settings: Pick<Settings, 'groupCommit' | 'maxSubscribers' | 'maxStreams'>
  readonly storage: Storage
  readonly log: Log
  readonly observers?: ServiceObservers
  /** Interval of the change feed's keep-alive comments, in ms (tests shorten it). */
  readonly keepAliveMs?: number | undefined
}

/**
 * The server's services, built once where the app is assembled: the group-commit writer,
 * the listing, the change feed, and the background purge of expired Idempotency-Keys. None
 * knows HTTP; the route files map requests to them.
 */
export class Services {
  readonly writer: TaskWriter
  readonly listing: Listing
  readonly feed: Feed
  readonly #purge: IdempotencyPurge

  constructor({ settings, storage, log, observers = {}, keepAliveMs }: ServiceOptions) {
    this.writer = new TaskWriter(storage, {
      maxBatch: settings.groupCommit ? MAX_BATCH : 1,
      pipeline: settings.groupCommit ? storage.batchesInFlight : 1,
      observer: observers.writer,
      log,
    })
    this.listing = new Listing(storage, { maxStreams: settings.maxStreams })
    this.feed = new Feed(storage, {
      maxSubscribers: settings.maxSubscribers,
      keepAliveMs,
      log,
      onSubscribers: observers.onSubscribers,
    })
    this.#purge = new IdempotencyPurge(storage, log)
  }

  /** Starts the background work, once the app is ready to serve. */
  async start(): Promise<void> {
    await this.#purge.start()
  }

  /** Ends the open streams that would never end by themselves (the feed's), before the drain. */
  endStreams(): void {
    this.feed.close()
  }

  /** Stops the background work and waits for the writes in progress. */
  async close(): Promise<void> {
    this.#purge.stop()
    await this.writer.close()
  }
}

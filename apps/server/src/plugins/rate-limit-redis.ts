/// <reference path="../types/fastify-rate-limit-redis-store.d.ts" />
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit'
import RedisStore from '@fastify/rate-limit/store/RedisStore.js'
import type { FastifyBaseLogger } from 'fastify'
import { Redis } from 'ioredis'

/** How often, at most, an outage of Redis is logged again while it lasts. */
const OUTAGE_LOG_EVERY_MS = 60_000

/** Where every instance's counters live in Redis. */
const KEY_PREFIX = 'tasklane-rate-limit-'

/** A rate-limit store shared by every instance through Redis, and how to let it go. */
export interface SharedStore {
  /** For @fastify/rate-limit's `store` option. */
  readonly Store: new (
    options: FastifyRateLimitOptions,
  ) => FastifyRateLimitStore
  /** Resolves once connected, or after `ms` whatever happens: the server starts either way. */
  connected(ms: number): Promise<void>
  close(): Promise<void>
}

/**
 * Logs an outage of Redis once when it starts, at most once a minute while it lasts (with
 * how many requests went uncounted meanwhile), and once when it ends: never a line per request.
 */
function outageLog(log: FastifyBaseLogger) {
  let down = false
  let loggedAt = 0
  let uncounted = 0
  return {
    failed(error: unknown, request: boolean) {
      if (request) uncounted++
      const now = Date.now()
      if (down && now - loggedAt < OUTAGE_LOG_EVERY_MS) return
      log.warn(
        { err: error, uncounted },
        down
          ? 'Redis of the shared rate limit is still unreachable; requests are served uncounted'
          : 'Redis of the shared rate limit is unreachable; requests are served uncounted (fail open)',
      )
      down = true
      loggedAt = now
      uncounted = 0
    },
    succeeded() {
      if (!down) return
      down = false
      log.info({ uncounted }, 'Redis of the shared rate limit is reachable again')
      uncounted = 0
    },
  }
}

/**
 * @fastify/rate-limit's Redis store on its own connection, so that every instance counts
 * against one limit. A request never waits for Redis to come back: with no connection a
 * count fails at once, and a Redis that does not answer fails it after 500 ms; the plugin
 * then lets the request through (`skipOnError`).
 */
export function sharedStore(url: string, log: FastifyBaseLogger): SharedStore {
  const outage = outageLog(log)
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2_000,
  })
  // ioredis reconnects by itself (after 50 ms, 100 ms, … up to every 2 s); each failed
  // attempt is an `error` event.
  redis.on('error', (error) => outage.failed(error, false))

  const observed = (inner: FastifyRateLimitStore): FastifyRateLimitStore => ({
    incr(key, callback, ...rest: unknown[]) {
      const done: typeof callback = (error, result) => {
        if (error) outage.failed(error, true)
        else outage.succeeded()
        callback(error, result)
      }
      ;(inner.incr as (...args: unknown[]) => void)(key, done, ...rest)
    },
    child: (routeOptions) => observed(inner.child(routeOptions)),
  })

  return {
    Store: class {
      // The plugin's own settings, which it hands every store it constructs.
      constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
        // biome-ignore lint/correctness/noConstructorReturn: the plugin takes a class
        return observed(
          new RedisStore(options.continueExceeding, options.exponentialBackoff, redis, KEY_PREFIX),
        )
      }
    } as unknown as SharedStore['Store'],
    async connected(ms) {
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms)
      })
      await Promise.race([redis.connect().catch(() => {}), late])
      clearTimeout(timer)
    },
    async close() {
      // A closing server logs no outage; an `error` event with no listener at all would
      // still crash the process, so one that ignores it stays.
      redis.removeAllListeners('error')
      redis.on('error', () => {})
      redis.disconnect()
    },
  }
}

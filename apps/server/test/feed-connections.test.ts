import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import { Authenticator, OPEN_CREDENTIAL } from '../src/access/authenticator.js'
import { RightsCache } from '../src/access/rights-cache.js'
import type { Storage } from '../src/storage/open-storage.js'
import { Feed } from '../src/tasks/feed.js'
import { TurnBudget } from '../src/tasks/turn-budget.js'

/** A response as the feed sees it: it can close, and be cut. */
class FakeConnection extends EventEmitter {
  readonly destroy = vi.fn()
}

describe('the change feed and its connections', () => {
  it('forgets a connection that closed while its subscription was being set up', async () => {
    vi.useFakeTimers()
    try {
      let answer = (_sequence: { seq: number; accessSeq: number }) => {}
      let asked = () => {}
      const reading = new Promise<void>((resolve) => (asked = resolve))
      const storage = {
        sequence: () => {
          asked()
          return new Promise((resolve) => (answer = resolve))
        },
        onCommitted: () => () => {},
        changesAfter: async () => ({ value: [], seq: 0, accessSeq: 0 }),
      } as unknown as Storage
      const log = { warn: () => {} } as never
      const feed = new Feed(storage, {
        maxSubscribers: 10,
        log,
        rights: new RightsCache(storage),
        authenticator: new Authenticator(storage, {}),
        budget: new TurnBudget(4),
      })
      const connection = new FakeConnection()
      const subscribing = feed.subscribe({ connection, credential: OPEN_CREDENTIAL })
      // The client leaves during the first round trip to the database.
      await reading
      connection.emit('close')
      answer({ seq: 0, accessSeq: 0 })
      ;(await subscribing).destroy()
      feed.close()
      await vi.advanceTimersByTimeAsync(5_000)
      // A connection the feed still held would be cut at close: this one is long gone.
      expect(connection.destroy).not.toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
    }
  })
})

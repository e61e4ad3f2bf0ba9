import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import type { Storage } from '../src/storage/open-storage.js'
import { Feed } from '../src/tasks/feed.js'

/** A response as the feed sees it: it can close, and be cut. */
class FakeConnection extends EventEmitter {
  readonly destroy = vi.fn()
}

describe('the change feed and its connections', () => {
  it('forgets a connection that closed while its subscription was being set up', async () => {
    vi.useFakeTimers()
    try {
      let answer = (_seq: number) => {}
      const storage = {
        newestSeq: () => new Promise<number>((resolve) => (answer = resolve)),
        onCommitted: () => () => {},
        changesAfter: async () => ({ value: [], seq: 0 }),
      } as unknown as Storage
      const log = { warn: () => {} } as never
      const feed = new Feed(storage, { maxSubscribers: 10, log })
      const connection = new FakeConnection()
      const subscribing = feed.subscribe({ connection })
      // The client leaves during the first round trip to the database.
      connection.emit('close')
      answer(0)
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

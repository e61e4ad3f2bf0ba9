import pg from 'pg'
import type { HighWater } from '../high-water.js'

/** First wait before the listening connection is opened again; it doubles up to the next. */
const RECONNECT_MIN_MS = 100
const RECONNECT_MAX_MS = 5_000

/** What the commit listener needs: where to listen, and how to read the newest id. */
export interface CommitListenerOptions {
  /** The database URL (the same search_path as the pool). */
  readonly url: string
  /** The channel that every write transaction notifies (per deployment: see open.ts). */
  readonly channel: string
  /** The newest committed id, read through the pool. */
  readonly newestId: () => Promise<number>
  /** How often the newest id is read besides notifications, in ms. */
  readonly checkMs: number
}

/** A channel name as an SQL identifier: LISTEN takes no bound parameter. */
const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * Raises the high-water mark from commits made by any instance on the database: LISTEN on
 * a connection of its own (a pooled one would be handed to queries and lose its LISTEN),
 * opened again with backoff whenever it drops, plus a periodic read of the newest id.
 * A notification carries only an id, so one lost while the connection was down, or
 * merged with another, costs nothing but latency: the next check or notification covers
 * it, and the connection reads the newest id each time it is opened again.
 */
export function listenForCommits({ url, channel, newestId, checkMs }: CommitListenerOptions) {
  return (highWater: HighWater): (() => Promise<void>) => {
    let client: pg.Client | undefined
    let closed = false
    let retryMs = RECONNECT_MIN_MS
    let retryTimer: NodeJS.Timeout | undefined

    const check = () =>
      newestId().then(
        (id) => highWater.raise(id),
        () => {}, // The pool reconnects by itself; the next check tries again.
      )

    const reconnect = (dropped: pg.Client) => {
      if (closed || client !== dropped) return
      client = undefined
      dropped.end().catch(() => {})
      retryTimer = setTimeout(connect, retryMs)
      retryTimer.unref()
      retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS)
    }

    async function connect(): Promise<void> {
      if (closed) return
      const connection = new pg.Client({
        connectionString: url,
        application_name: 'tasklane-listen',
        keepAlive: true,
      })
      client = connection
      connection.on('notification', ({ channel: from, payload }) => {
        const id = Number(payload)
        if (from === channel && Number.isSafeInteger(id)) highWater.raise(id)
      })
      connection.on('error', () => reconnect(connection))
      connection.on('end', () => reconnect(connection))
      try {
        await connection.connect()
        await connection.query(`listen ${identifier(channel)}`)
        retryMs = RECONNECT_MIN_MS
        // Whatever committed while nobody listened.
        await check()
      } catch {
        reconnect(connection)
      }
    }

    const poll = setInterval(check, checkMs)
    poll.unref()
    void connect()
    return async () => {
      closed = true
      clearInterval(poll)
      clearTimeout(retryTimer)
      await client?.end().catch(() => {})
    }
  }
}

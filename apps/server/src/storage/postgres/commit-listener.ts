import pg from 'pg'
import type { CommittedSeq } from '../committed-seq.js'

/** First wait before the listening connection is opened again; it doubles up to the next. */
const RECONNECT_MIN_MS = 100
const RECONNECT_MAX_MS = 5_000

/** What the commit listener needs: where to listen, and how to read the newest seq. */
export interface CommitListenerOptions {
  /**
   * A URL whose connections are sessions (the same database and search_path as the pool);
   * none when every connection goes through a transaction-mode pooler, where a LISTEN would
   * last one transaction: then the newest seq is only read every `checkMs`.
   */
  readonly url: string | undefined
  /** The channel that every write transaction notifies (per deployment: see open.ts). */
  readonly channel: string
  /** The newest committed seq, read through the pool. */
  readonly newestSeq: () => Promise<number>
  /** How often the newest seq is read besides notifications (or instead of them), in ms. */
  readonly checkMs: number
}

/** A channel name as an SQL identifier: LISTEN takes no bound parameter. */
const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * Raises the committed seq from commits made by any instance on the database: LISTEN on a
 * connection of its own (a pooled one would be handed to queries and lose its LISTEN), when
 * there is a session to hold one, opened again with backoff whenever it drops, plus a
 * periodic read of the newest seq. A notification carries only a seq, so one lost while the
 * connection was down, or merged with another, costs nothing but latency: the next check or
 * notification covers it, and the connection reads the newest seq each time it is opened
 * again. Without a session the periodic read is all there is: a commit reaches the feed
 * within `checkMs` and a round trip.
 */
export function listenForCommits({ url, channel, newestSeq, checkMs }: CommitListenerOptions) {
  return (committed: CommittedSeq): (() => Promise<void>) => {
    let client: pg.Client | undefined
    let closed = false
    let retryMs = RECONNECT_MIN_MS
    let retryTimer: NodeJS.Timeout | undefined

    const check = () =>
      newestSeq().then(
        (seq) => committed.raise(seq),
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
      if (closed || url === undefined) return
      const connection = new pg.Client({
        connectionString: url,
        application_name: 'tasklane-listen',
        keepAlive: true,
      })
      client = connection
      connection.on('notification', ({ channel: from, payload }) => {
        const seq = Number(payload)
        if (from === channel && Number.isSafeInteger(seq)) committed.raise(seq)
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
    if (url === undefined) void check()
    else void connect()
    return async () => {
      closed = true
      clearInterval(poll)
      clearTimeout(retryTimer)
      await client?.end().catch(() => {})
    }
  }
}

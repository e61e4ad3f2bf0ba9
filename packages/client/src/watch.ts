import { feedBatches } from './feed.js'
import type { WatchOptions } from './options.js'
import { retryDelay } from './retry.js'
import type { Transport } from './transport.js'
import type { TaskEvent } from './types.js'
import { sleep } from './utils/sleep.js'

/**
 * Follows the change feed: each change once, in seq order, from `after` (or from
 * `newestSeq()`, asked once). A stream that ends or fails is opened again after the last
 * seq yielded (`Last-Event-ID`), with backoff while it keeps failing, until `signal`
 * aborts; then it ends without an error. An error no retry can mend (a 401, say) is thrown.
 * A `reset` is yielded and its stream left: the next one starts after the reset's seq.
 */
export async function* watchTasks(
  transport: Transport,
  call: WatchOptions,
  newestSeq: () => Promise<number | undefined>,
): AsyncGenerator<TaskEvent, void, undefined> {
  const { signal } = call
  const settings = transport.retrySettings(call.retry)
  // Reconnects until the signal aborts; the backoff is the retries' own.
  const forever = { ...settings, maxRetries: Number.POSITIVE_INFINITY }
  let last = call.after
  let failures = 0
  for (;;) {
    let failure: unknown
    try {
      // Without `after`, from the newest change now, so that a reconnection before the
      // first event still knows where to resume.
      last ??= await newestSeq()
      feed: for await (const batch of feedBatches(transport, call, {
        after: last,
        tag: call.tag,
        status: call.status,
        list: call.list,
      })) {
        // Anything received, a keep-alive included, shows that the connection works.
        failures = 0
        for (const event of batch.events) {
          const newer = last === undefined || event.seq > last
          if (newer) last = event.seq
          // Never twice, whatever a server or proxy replays; a reset always: it is news
          // whatever its seq.
          if (newer || event.type === 'reset') yield event
          // The connection after it is opened as after a stream that ended.
          if (event.type === 'reset') break feed
        }
        // Caught up past changes the view does not show: a resume starts after them.
        if (batch.seq !== undefined && (last === undefined || batch.seq > last)) last = batch.seq
      }
    } catch (error) {
      failure = error
    }
    if (signal?.aborted) return
    if (settings.maxRetries === 0) {
      if (failure === undefined) return
      throw failure
    }
    // The stream ended (the server restarts, say) or failed: open it again, later and later
    // while it keeps failing; the jitter spreads the clients of one server.
    const delay =
      failure === undefined
        ? settings.initialDelayMs * Math.random()
        : retryDelay(failure, { retries: failures++, settings: forever, repeatable: true })
    if (delay === undefined) throw failure
    try {
      await sleep(delay, signal, () => undefined)
    } catch {
      return
    }
  }
}

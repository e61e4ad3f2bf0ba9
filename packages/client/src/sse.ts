import { LineSplitter, MAX_LINE_LENGTH } from './line-splitter.js'

/** One event of a Server-Sent Events stream, as the WHATWG HTML standard defines it. */
export interface SseEvent {
  /** The last event ID: of the latest `id:` field so far in the stream (it carries over), or ''. */
  id: string
  /** The event type: of its `event:` field, or `message`. */
  event: string
  /** Its `data:` fields joined with `\n`. */
  data: string
  /** The reconnection time (ms) of the latest valid `retry:` field so far, if any. */
  retry: number | undefined
}

/**
 * A Server-Sent Events parser, pure: chunks of the stream in (bytes or text), events out,
 * per https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation:
 * CR, LF or CRLF line ends, `:` comments, multi-line data, one leading BOM dropped, `id`
 * without NUL, `retry` of digits only, unknown fields ignored, an event dispatched at a
 * blank line and only with data (so an event cut off by the stream's end is dropped: there
 * is nothing to flush). Throws a RangeError when a line, or the data of one event, is
 * longer than `maxLength`.
 */
export class SseParser {
  /** The last event ID buffer: what a reconnection sends as `Last-Event-ID`. */
  lastEventId = ''
  /** The reconnection time set by the stream's latest valid `retry:` field, if any. */
  retry: number | undefined
  readonly #lines: LineSplitter
  #event = ''
  #data = ''
  #comments: string[] = []

  constructor(readonly maxLength = MAX_LINE_LENGTH) {
    this.#lines = new LineSplitter(maxLength)
  }

  /** The events that `chunk` completes. */
  push(chunk: string | Uint8Array): SseEvent[] {
    const events: SseEvent[] = []
    for (const line of this.#lines.push(chunk)) {
      if (line === '') {
        const data = this.#data
        if (data !== '') {
          const { lastEventId: id, retry } = this
          events.push({ id, event: this.#event || 'message', data: data.slice(0, -1), retry })
        }
        this.#event = this.#data = ''
        continue
      }
      const colon = line.indexOf(':')
      const field = colon === -1 ? line : line.slice(0, colon)
      let value = colon === -1 ? '' : line.slice(colon + 1)
      if (value[0] === ' ') value = value.slice(1)
      // A comment (an empty field name) is kept for `takeComments`; unknown fields fall through.
      if (field === '') this.#comments.push(value)
      else if (field === 'event') this.#event = value
      else if (field === 'data') {
        this.#data += `${value}\n`
        if (this.#data.length > this.maxLength + 1) {
          throw new RangeError(
            `An event's data is longer than the client's limit of ${this.maxLength} characters`,
          )
        }
      } else if (field === 'id') {
        if (!value.includes('\0')) this.lastEventId = value
      } else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value)
    }
    return events
  }

  /** The comment lines (`: text`, as `text`) pushed since the last call, in order. */
  takeComments(): string[] {
    const comments = this.#comments
    this.#comments = []
    return comments
  }
}

/**
 * The events of a Server-Sent Events stream as its chunks arrive. Stopping early returns
 * the source iterator (which cancels a response body).
 */
export async function* sseEvents(
  chunks: AsyncIterable<string | Uint8Array>,
  maxLength = MAX_LINE_LENGTH,
): AsyncGenerator<SseEvent, void, undefined> {
  const parser = new SseParser(maxLength)
  for await (const chunk of chunks) yield* parser.push(chunk)
}

/**
 * The longest line the client accepts in a streamed response, in characters (UTF-16 code
 * units): 1,048,576, far above a task's size, low enough that a server sending one endless
 * line cannot exhaust a browser tab's memory.
 */
export const MAX_LINE_LENGTH = 2 ** 20

/**
 * Splits a stream into lines as its chunks arrive: `\r\n`, `\n` or `\r` ends one (what both
 * Server-Sent Events and NDJSON allow), also when `\r\n` is split between two chunks. Bytes
 * are decoded as UTF-8 (a character may be split between chunks too); one leading byte order
 * mark is dropped. Throws a RangeError as soon as a line, complete or not, is longer than
 * `maxLength`: what is past it is never buffered.
 */
export class LineSplitter {
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  #rest = ''
  #started = false
  #afterCR = false

  constructor(readonly maxLength = MAX_LINE_LENGTH) {}

  /** The lines that `chunk` completes. */
  push(chunk: string | Uint8Array): string[] {
    let text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true })
    if (text === '') return []
    if (!this.#started) {
      this.#started = true
      if (text[0] === '\uFEFF') text = text.slice(1)
    }
    // A `\n` right after a `\r` that ended the previous chunk ends no line of its own.
    if (this.#afterCR && text[0] === '\n') text = text.slice(1)
    this.#afterCR = text.endsWith('\r')
    const lines = (this.#rest + text).split(/\r\n?|\n/)
    this.#rest = this.#checked(lines.pop() as string)
    for (const line of lines) this.#checked(line)
    return lines
  }

  /** The end of the stream: the last line if it had no line end, else ''. */
  end(): string {
    const last = this.#checked(this.#rest + this.#decoder.decode())
    this.#rest = ''
    return last
  }

  #checked(line: string): string {
    if (line.length > this.maxLength) {
      throw new RangeError(
        `A line is longer than the client's limit of ${this.maxLength} characters`,
      )
    }
    return line
  }
}

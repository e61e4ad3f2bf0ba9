/** One line of an import's input: its text, or only its length when it is too long to keep. */
export interface InputLine {
  /** 1 for the first line. */
  readonly number: number
  /** Its text (UTF-8, without its line break), or undefined when it is over the cap. */
  readonly text: string | undefined
  /** Its length in bytes, without its line break. */
  readonly length: number
  /** The bytes it takes of the input, its line break included. */
  readonly bytes: number
}

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d

/**
 * The lines of `input` (split at `\n`, a `\r` before it dropped), read as the loop asks for
 * them; each chunk may be overwritten once the next one is asked for. A line longer than `maxBytes` is never held: its bytes are counted as they stream
 * past and it comes without its text, so that memory stays bounded whatever the input holds.
 */
export async function* readLines(
  input: AsyncIterable<Buffer | string>,
  maxBytes: number,
): AsyncGenerator<InputLine, void, undefined> {
  let parts: Buffer[] = []
  /** Bytes of the current line so far (kept in `parts` unless it is over the cap). */
  let length = 0
  let over = false
  let number = 0
  const finish = (lineBreak: number): InputLine => {
    let line = over ? undefined : parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts)
    if (line?.at(-1) === CARRIAGE_RETURN) line = line.subarray(0, -1)
    // A line exactly at the cap may have been kept with its `\r`, which is not its text.
    const text = line === undefined || line.length > maxBytes ? undefined : line.toString('utf8')
    const kept = line?.length ?? length
    const read = { number: ++number, text, length: kept, bytes: length + lineBreak }
    parts = []
    length = 0
    over = false
    return read
  }
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    let start = 0
    while (start < bytes.length) {
      const end = bytes.indexOf(NEWLINE, start)
      const stop = end === -1 ? bytes.length : end
      length += stop - start
      // One byte of room for the `\r` of a line break written `\r\n`.
      if (!over && length > maxBytes + 1) {
        over = true
        parts = []
      }
      // A copy: the reader may fill the chunk's memory again with the next chunk.
      if (!over) parts.push(Buffer.from(bytes.subarray(start, stop)))
      if (end === -1) break
      yield finish(1)
      start = end + 1
    }
  }
  // The last line, when the input does not end with a line break.
  if (length > 0) yield finish(0)
}

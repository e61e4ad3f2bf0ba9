import { LineSplitter, MAX_LINE_LENGTH } from './line-splitter.js'

/**
 * The records of an NDJSON stream as they arrive, one per non-empty line, as text (to
 * JSON.parse); the last one may lack its line end. Throws a RangeError past `maxLength`,
 * reading no further. Stopping early returns the source iterator (which cancels a body).
 */
export async function* ndjsonRecords(
  chunks: AsyncIterable<string | Uint8Array>,
  maxLength = MAX_LINE_LENGTH,
): AsyncGenerator<string, void, undefined> {
  const lines = new LineSplitter(maxLength)
  for await (const chunk of chunks) {
    for (const line of lines.push(chunk)) if (line !== '') yield line
  }
  const last = lines.end()
  if (last !== '') yield last
}

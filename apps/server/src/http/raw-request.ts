/** The path of a request URL, without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

/**
 * How many header lines named `name` (lower case) a request sent. Node folds repeats
 * into one value or keeps only the first, so the raw lines are counted; no allocation,
 * as it runs on every request.
 */
export function headerLines(rawHeaders: readonly string[], name: string): number {
  let count = 0
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const field = rawHeaders[i] as string
    if (field.length === name.length && field.toLowerCase() === name) count++
  }
  return count
}

/** Longest request line taken for an ordinary one when the headers overflow (bytes). */
const LONG_REQUEST_LINE = 8 * 1024

/**
 * Whether the bytes Node was parsing when its header limit was reached (`rawPacket` of
 * the error) are a request line still going, or one that long: a URL too long (414)
 * rather than headers too large (431).
 */
export function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (packet === undefined) return false
  const end = packet.indexOf('\r\n')
  return end === -1 ? packet.length >= LONG_REQUEST_LINE : end >= LONG_REQUEST_LINE
}

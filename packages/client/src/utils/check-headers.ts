// RFC 9110: a field name is a token; a field value is visible ASCII, spaces and tabs. fetch
// itself lets U+0080–U+00FF through (sent as one Latin-1 byte each, not as the UTF-8 the
// server would expect) and names neither the header nor the fault in what it throws.
const NAME = /^[!#$%&'*+.^_`|~\w-]+$/
const BAD_VALUE = /[^\t\x20-\x7e]/

/**
 * Throws a TypeError naming the first header that fetch would refuse or garble: a line
 * break (which would smuggle in another header), a control or a non-ASCII character. The
 * value is not quoted in the message: it may be a secret.
 */
export function checkHeaders(headers: Record<string, string>): void {
  for (const name in headers) {
    const index = (headers[name] as string).search(BAD_VALUE)
    if (index !== -1 || !NAME.test(name)) {
      throw new TypeError(
        index === -1
          ? `Invalid header name: "${name}".`
          : `Invalid value for the "${name}" header: a line break, control or non-ASCII character at index ${index}. Header values must be printable ASCII.`,
      )
    }
  }
}

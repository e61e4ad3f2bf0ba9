/** The query string of `query` (`?a=1&b=x`), leaving out undefined values; '' when empty. */
export function queryString(query: Record<string, string | number | undefined> = {}): string {
  let text = ''
  for (const key in query) {
    const value = query[key]
    if (value === undefined) continue
    // An integer needs no escaping; anything else is encoded as URLSearchParams would.
    const pair =
      typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 1e21
        ? `${key}=${value}`
        : new URLSearchParams({ [key]: String(value) }).toString()
    text += (text === '' ? '?' : '&') + pair
  }
  return text
}

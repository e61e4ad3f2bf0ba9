/**
 * The `cursor` parameter (`after` ascending, `before` descending) of the `rel="next"` target
 * of an RFC 8288 `Link` header, if any. Only the cursor is taken: the client builds the URL
 * itself, so a path prefix of `baseUrl` is kept.
 */
export function nextCursor(link: string | null, cursor: 'after' | 'before'): number | undefined {
  for (const [, target, params] of (link ?? '').matchAll(/<([^>]*)>([^,]*)/g)) {
    if (!/;\s*rel="?[^"]*\bnext\b/i.test(params ?? '')) continue
    const value = new URL(target ?? '', 'http://x').searchParams.get(cursor)
    if (value !== null && /^\d+$/.test(value)) return Number(value)
  }
  return undefined
}

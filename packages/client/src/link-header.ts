/**
 * The `after` cursor of the `rel="next"` target of an RFC 8288 `Link` header, if any. Only the
 * cursor is taken: the client builds the URL itself, so a path prefix of `baseUrl` is kept.
 */
export function nextAfter(link: string | null): number | undefined {
  for (const [, target, params] of (link ?? '').matchAll(/<([^>]*)>([^,]*)/g)) {
    if (!/;\s*rel="?[^"]*\bnext\b/i.test(params ?? '')) continue
    const after = new URL(target ?? '', 'http://x').searchParams.get('after')
    if (after !== null && /^\d+$/.test(after)) return Number(after)
  }
  return undefined
}

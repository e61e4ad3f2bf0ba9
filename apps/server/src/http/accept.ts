/** A media range of an Accept header: `type/subtype` (either may be `*`) and its weight. */
interface Range {
  readonly type: string
  readonly q: number
}

function ranges(accept: string): Range[] {
  return accept.split(',').flatMap((part) => {
    const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase())
    if (!type.includes('/')) return []
    const q = params.find((param) => param.startsWith('q='))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    return [{ type, q: Number.isFinite(weight) ? weight : 0 }]
  })
}

/** How much `accept` wants `media`: the weight of the most specific range that covers it. */
function weight(list: readonly Range[], media: string): number {
  const group = `${media.slice(0, media.indexOf('/'))}/*`
  for (const candidate of [media, group, '*/*']) {
    const range = list.find((r) => r.type === candidate)
    if (range) return range.q
  }
  return 0
}

/**
 * Which of `offered` (the first is the default) an Accept header prefers (RFC 9110,
 * section 12.5.1): the highest weight wins, ties go to the earlier one. A header that
 * accepts none of them gets the default rather than a 406.
 */
export function preferredMedia<const T extends string>(
  accept: string | undefined,
  offered: readonly [T, ...T[]],
): T {
  if (accept === undefined || accept === '') return offered[0]
  const list = ranges(accept)
  let best = offered[0]
  let bestWeight = weight(list, best)
  for (const media of offered.slice(1)) {
    const w = weight(list, media)
    if (w > bestWeight) {
      best = media
      bestWeight = w
    }
  }
  return best
}

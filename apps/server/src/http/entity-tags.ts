import type { IfMatch } from '../storage/open-storage.js'

export { ENTITY_TAG_LIST } from '@tasklane/contract'

/** An entity tag as a request names it: its opaque text, and whether it is weak (`W/`). */
interface EntityTag {
  readonly weak: boolean
  readonly opaque: string
}

const ENTITY_TAG = /(W\/)?"([^"]*)"/g

/** A task's ETag: its version, as a strong entity tag. */
export const etagOf = (version: number): string => `"${version}"`

/**
 * The entity tags of an If-Match or If-None-Match value, or `*`. The value has passed the
 * contract's pattern (ENTITY_TAG_LIST), so only the tags need picking out: empty list
 * elements hold none.
 */
function entityTags(value: string): '*' | EntityTag[] {
  if (value.trim() === '*') return '*'
  return [...value.matchAll(ENTITY_TAG)].map((match) => ({
    weak: match[1] !== undefined,
    opaque: match[2] as string,
  }))
}

/** A task version named by an entity tag's text, if it names one (`3`, never `03` or `a`). */
const versionOf = (opaque: string) =>
  /^[1-9][0-9]{0,15}$/.test(opaque) ? Number(opaque) : undefined

/**
 * If-Match as a write checks it: `*`, or the versions its strong tags name. Strong
 * comparison (RFC 9110): a weak tag never matches, nor one that names no version.
 */
export function ifMatchOf(value: string | undefined): IfMatch | undefined {
  if (value === undefined) return undefined
  const tags = entityTags(value)
  if (tags === '*') return '*'
  return tags.flatMap((tag) => {
    const version = tag.weak ? undefined : versionOf(tag.opaque)
    return version === undefined ? [] : [version]
  })
}

/** Whether a request's If-Match holds for this version (none: it holds). */
export function matchesIfMatch(value: string | undefined, version: number): boolean {
  const ifMatch = ifMatchOf(value)
  return ifMatch === undefined || ifMatch === '*' || ifMatch.includes(version)
}

/**
 * If-None-Match as a write checks it: `*`, or the versions its tags name, weak or strong
 * (weak comparison, RFC 9110 13.1.2): the write happens only if none is the current one.
 */
export function ifNoneMatchOf(value: string | undefined): IfMatch | undefined {
  if (value === undefined) return undefined
  const tags = entityTags(value)
  if (tags === '*') return '*'
  return tags.flatMap((tag) => {
    const version = versionOf(tag.opaque)
    return version === undefined ? [] : [version]
  })
}

/** Whether If-None-Match names the task's version: weak comparison (`W/"3"` matches `"3"`), `*` any task. */
export function noneMatchHits(value: string | undefined, version: number): boolean {
  if (value === undefined) return false
  const tags = entityTags(value)
  return tags === '*' || tags.some((tag) => versionOf(tag.opaque) === version)
}

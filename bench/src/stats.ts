/** The value below which `p` percent of the sorted samples fall (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number
}

/** The median; the mean of the two middle values for an even count. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const ordered = sorted(values)
  const middle = ordered.length >> 1
  return ordered.length % 2 === 1
    ? (ordered[middle] as number)
    : ((ordered[middle - 1] as number) + (ordered[middle] as number)) / 2
}

/** Numeric ascending sort into a new array. */
export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b)
}

/** `value / reference`, or NaN when either is missing. */
export function ratio(value: number, reference: number): number {
  return Number.isFinite(value) && Number.isFinite(reference) && reference !== 0
    ? value / reference
    : Number.NaN
}

/** Rounds for display and JSON: `digits` significant decimals, NaN stays NaN. */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}

/**
 * How far apart the rounds were: max ÷ min − 1 (0.1: the best round 10 % above the
 * worst); NaN for fewer than two rounds.
 */
export function spread(values: readonly number[]): number {
  // One round says nothing of how far the next would land.
  if (values.length < 2) return Number.NaN
  const least = Math.min(...values)
  return least > 0 ? Math.max(...values) / least - 1 : Number.NaN
}

/**
 * Whether a comparison of two medians can be judged: not when either figure's rounds
 * spread further apart than the two medians are (`|a ÷ b − 1|`), or a spread is unknown.
 */
export function tooNoisy(
  a: { rps: number; spread: number },
  b: { rps: number; spread: number },
): boolean {
  const gap = Math.abs(ratio(a.rps, b.rps) - 1)
  return !(gap >= Math.max(a.spread, b.spread))
}

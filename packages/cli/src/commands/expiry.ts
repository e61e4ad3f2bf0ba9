import { UsageError } from '../usage-error.js'

/** Milliseconds in each unit of a duration: `90m`, `12h`, `30d`, `2w`. */
const UNITS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
}

const DURATION = /^(\d{1,6})([mhdw])$/
const DAY = /^\d{4}-\d{2}-\d{2}$/

/**
 * When a token given `--expires TEXT` stops working, as RFC 3339: a duration from `now`
 * (`30d`, `12h`, `90m`, `2w`), a day (`2027-01-01`: its start, UTC), or a moment with
 * its offset (`2027-01-01T09:00:00+01:00`), sent as written for the server to check.
 */
export function expiryOf(text: string, now: Date, command: string): string {
  const duration = DURATION.exec(text)
  if (duration !== null) {
    const [, amount, unit] = duration as unknown as [string, string, string]
    const ms = Number(amount) * (UNITS[unit] ?? 0)
    if (ms === 0)
      throw new UsageError(`--expires must be a duration above 0, got '${text}'.`, command)
    return new Date(now.getTime() + ms).toISOString()
  }
  if (DAY.test(text)) return `${text}T00:00:00Z`
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) return text
  throw new UsageError(
    `--expires must be a duration (30d, 12h, 90m, 2w), a day (2027-01-01) or a moment (2027-01-01T09:00:00Z), got '${text}'.`,
    command,
  )
}

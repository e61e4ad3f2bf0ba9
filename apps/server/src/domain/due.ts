import { Temporal } from 'temporal-polyfill'

/** A due as stored beside its text: a day, or the instant of a moment, and how it sorts. */
export interface DueParts {
  /** `YYYY-MM-DD` for a day; null for a moment. */
  readonly day: string | null
  /** The instant of a moment (ms since the epoch); null for a day. */
  readonly at: number | null
  /**
   * How `sort=due` orders it (ms): a moment at its instant; a day at the last millisecond
   * of that day in UTC, so that a day comes after the moments of its UTC day.
   */
  readonly key: number
}

const DAY_LENGTH_MS = 24 * 60 * 60 * 1000

/** The parts of a due the API has accepted (a day, or an RFC 3339 date-time with an offset). */
export function dueParts(due: string): DueParts {
  if (due.length === 10) {
    const start = Temporal.PlainDate.from(due).toZonedDateTime({ timeZone: 'UTC' })
    return { day: due, at: null, key: start.epochMilliseconds + DAY_LENGTH_MS - 1 }
  }
  // Temporal reads a leap second (`:60`) as the last second of its minute.
  const at = Temporal.Instant.from(due).epochMilliseconds
  return { day: null, at, key: at }
}

/** The instant `day` (`YYYY-MM-DD`) starts in `timeZone`. */
export function startOfDay(day: string, timeZone: string): number {
  return Temporal.PlainDate.from(day).toZonedDateTime({ timeZone }).epochMilliseconds
}

/** The date (`YYYY-MM-DD`) it is at instant `ms` in `timeZone`. */
export function dayAt(ms: number, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(timeZone)
    .toPlainDate()
    .toString()
}

/** The day after `day`. */
export const nextDay = (day: string): string =>
  Temporal.PlainDate.from(day).add({ days: 1 }).toString()

/** Whether `timeZone` is a time zone the platform knows (an IANA name, or UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    Temporal.Now.instant().toZonedDateTimeISO(timeZone)
    return true
  } catch {
    return false
  }
}

/** When a task is due, in words, as its row shows it. */
export interface DueWords {
  /** `Due tomorrow`, `Due in 3 days`, `Due today`, `3 days overdue`, `Due 2 days ago` (a done task). */
  readonly text: string
  /** Open and past its due: the row is marked overdue. */
  readonly overdue: boolean
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const MS_PER_DAY = 86_400_000

/** The calendar day of `instant` in `timeZone` (undefined: the browser's), as days since 1970-01-01. */
function dayNumber(instant: Date, timeZone: string | undefined): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(instant)
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return Date.UTC(part('year'), part('month') - 1, part('day')) / MS_PER_DAY
}

/** `3 days`, `1 hour`: a length of time, in English words. */
function span(amount: number, unit: 'day' | 'hour' | 'minute'): string {
  return new Intl.NumberFormat('en', { style: 'unit', unit, unitDisplay: 'long' }).format(amount)
}

/**
 * A due (a day `2026-12-01`, or a moment with an offset) in words relative to `now`, days
 * counted in `timeZone` (the browser's by default): a day is due until it ends there, a
 * moment until its instant. Future and present are said by Intl.RelativeTimeFormat
 * (`tomorrow`, `in 3 days`, `today`, `in 2 hours`); the past of an open task is overdue.
 */
export function dueInWords(
  due: string,
  {
    now = new Date(),
    open = true,
    timeZone,
  }: { now?: Date; open?: boolean; timeZone?: string } = {},
): DueWords {
  const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })
  const today = dayNumber(now, timeZone)
  const day = DAY.exec(due)
  if (day !== null) {
    const days = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) / MS_PER_DAY - today
    if (days >= 0 || !open) return { text: `Due ${relative.format(days, 'day')}`, overdue: false }
    return { text: `${span(-days, 'day')} overdue`, overdue: true }
  }
  const instant = new Date(due)
  if (Number.isNaN(instant.getTime())) return { text: `Due ${due}`, overdue: false }
  const ms = instant.getTime() - now.getTime()
  const days = dayNumber(instant, timeZone) - today
  const late = ms < 0 && open
  if (days !== 0) {
    if (!late) return { text: `Due ${relative.format(days, 'day')}`, overdue: false }
    return { text: `${span(Math.max(1, -days), 'day')} overdue`, overdue: true }
  }
  // Today: hours, or minutes within the hour.
  const minutes = Math.round(Math.abs(ms) / 60_000)
  const [amount, unit] =
    minutes < 60 ? [minutes, 'minute' as const] : [Math.round(minutes / 60), 'hour' as const]
  if (late) return { text: `${span(amount, unit)} overdue`, overdue: true }
  return { text: `Due ${relative.format(ms < 0 ? -amount : amount, unit)}`, overdue: false }
}

/** The due as a full date (and time, for a moment) in the browser's zone: a row's tooltip. */
export function dueInFull(due: string, timeZone?: string): string {
  const day = DAY.exec(due)
  if (day !== null) {
    const date = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])))
    return new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'UTC' }).format(date)
  }
  const instant = new Date(due)
  if (Number.isNaN(instant.getTime())) return due
  return new Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'short', timeZone }).format(
    instant,
  )
}

/** The day a date input shows for a due: the day itself, or a moment's day in the browser's zone. */
export function dueDay(due: string | undefined): string {
  if (due === undefined) return ''
  if (DAY.test(due)) return due
  const instant = new Date(due)
  if (Number.isNaN(instant.getTime())) return ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`
}

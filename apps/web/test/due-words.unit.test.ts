import { describe, expect, it } from 'vitest'
import { dueDay, dueInFull, dueInWords } from '../src/due-words.js'

// 10:00 UTC is 05:00 in New York (the same day) and 23:00 in Auckland (the same day).
const now = new Date('2026-11-28T10:00:00Z')
const newYork = { now, timeZone: 'America/New_York' }

describe('dueInWords', () => {
  it('says a day to come as Intl.RelativeTimeFormat does', () => {
    expect(dueInWords('2026-11-28', newYork)).toEqual({ text: 'Due today', overdue: false })
    expect(dueInWords('2026-11-29', newYork)).toEqual({ text: 'Due tomorrow', overdue: false })
    expect(dueInWords('2026-12-03', newYork)).toEqual({ text: 'Due in 5 days', overdue: false })
  })

  it('says a past day of an open task as overdue, and of a done one as past', () => {
    expect(dueInWords('2026-11-25', newYork)).toEqual({ text: '3 days overdue', overdue: true })
    expect(dueInWords('2026-11-27', newYork)).toEqual({ text: '1 day overdue', overdue: true })
    expect(dueInWords('2026-11-27', { ...newYork, open: false })).toEqual({
      text: 'Due yesterday',
      overdue: false,
    })
  })

  it('counts days in the time zone given: in Auckland it is already the 29th', () => {
    const auckland = { now: new Date('2026-11-28T12:00:00Z'), timeZone: 'Pacific/Auckland' }
    expect(dueInWords('2026-11-29', auckland)).toEqual({ text: 'Due today', overdue: false })
    expect(dueInWords('2026-11-28', auckland)).toEqual({ text: '1 day overdue', overdue: true })
  })

  it('says a moment today in hours or minutes, overdue once it has passed', () => {
    expect(dueInWords('2026-11-28T15:00:00Z', newYork)).toEqual({
      text: 'Due in 5 hours',
      overdue: false,
    })
    expect(dueInWords('2026-11-28T09:30:00Z', newYork)).toEqual({
      text: '30 minutes overdue',
      overdue: true,
    })
    expect(dueInWords('2026-11-29T12:00:00+01:00', newYork)).toEqual({
      text: 'Due tomorrow',
      overdue: false,
    })
    expect(dueInWords('2026-11-26T12:00:00-05:00', newYork)).toEqual({
      text: '2 days overdue',
      overdue: true,
    })
  })
})

describe('dueInFull and dueDay', () => {
  it('writes a day in full, and gives a date input its day', () => {
    expect(dueInFull('2026-12-01')).toBe('Tuesday, December 1, 2026')
    expect(dueDay('2026-12-01')).toBe('2026-12-01')
    expect(dueDay(undefined)).toBe('')
  })
})

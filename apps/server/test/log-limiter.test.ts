import { describe, expect, it } from 'vitest'
import { DatabaseUnavailableError } from '../src/domain/domain-errors.js'
import { LogLimiter, rootCause } from '../src/http/log-limiter.js'

describe('LogLimiter', () => {
  it('lets the first line of a cause through, holds back the rest of its window, and counts them in the next', () => {
    let now = 0
    const limiter = new LogLimiter(10_000, () => now)
    expect(limiter.take('disk full')).toBe(0)
    expect(limiter.take('disk full')).toBeUndefined()
    expect(limiter.take('disk full')).toBeUndefined()
    // Another cause has a window of its own.
    expect(limiter.take('writer died')).toBe(0)
    now = 9_999
    expect(limiter.take('disk full')).toBeUndefined()
    now = 10_000
    expect(limiter.take('disk full')).toBe(3)
    expect(limiter.take('disk full')).toBeUndefined()
  })
})

describe('rootCause', () => {
  it('names the innermost cause with its code', () => {
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
    const wrapped = new DatabaseUnavailableError({ cause: new Error('write', { cause: full }) })
    expect(rootCause(wrapped)).toBe('SQLITE_FULL: database or disk is full')
    expect(rootCause(new Error('plain'))).toBe('plain')
  })
})

import { describe, expect, it } from 'vitest'
import { ApiError, ConnectionError, TimeoutError, ValidationError } from '../../src/index.js'
import { DEFAULT_RETRY, retryAfterMs, retryDelay, retrySettings } from '../../src/retry.js'

const settings = { ...DEFAULT_RETRY, initialDelayMs: 100, maxDelayMs: 1000 }

const apiError = (status: number, headers: Record<string, string> = {}) =>
  new ApiError(status, status, 'm', 'GET', 'u', undefined, new Response(null, { status, headers }))

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z')
    expect(retryAfterMs('2', now)).toBe(2000)
    expect(retryAfterMs('0.5', now)).toBe(500)
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:03 GMT', now)).toBe(3000)
    expect(retryAfterMs('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0)
    expect(retryAfterMs('soon', now)).toBeUndefined()
    expect(retryAfterMs(null, now)).toBeUndefined()
  })
})

describe('retrySettings', () => {
  it('merges client and call settings; false at the nearest level turns retrying off', () => {
    expect(retrySettings(undefined, undefined)).toEqual(DEFAULT_RETRY)
    expect(retrySettings({ maxRetries: 5 }, { initialDelayMs: 1 })).toEqual({
      ...DEFAULT_RETRY,
      maxRetries: 5,
      initialDelayMs: 1,
    })
    expect(retrySettings(false, undefined).maxRetries).toBe(0)
    expect(retrySettings({ maxRetries: 5 }, false).maxRetries).toBe(0)
    expect(retrySettings(false, { maxRetries: 1 }).maxRetries).toBe(1)
  })
})

describe('retryDelay', () => {
  it('backs off exponentially up to maxDelayMs, with 50–100 % jitter', () => {
    for (let i = 0; i < 50; i++) {
      for (const [retries, full] of [
        [0, 100],
        [1, 200],
        [3, 800],
        [4, 1000],
        [9, 1000],
      ] as const) {
        const delay = retryDelay(new ConnectionError('m', 'GET', 'u'), {
          retries,
          settings: { ...settings, maxRetries: 10 },
          repeatable: true,
        })
        expect(delay).toBeGreaterThanOrEqual(full / 2)
        expect(delay).toBeLessThanOrEqual(full)
      }
    }
  })

  it.each([408, 429, 500, 502, 503, 504])('retries a %i', (status) => {
    expect(retryDelay(apiError(status), { retries: 0, settings, repeatable: true })).toBeTypeOf(
      'number',
    )
  })

  it.each([400, 401, 404, 409, 413, 422, 501, 505])('does not retry a %i', (status) => {
    expect(retryDelay(apiError(status), { retries: 0, settings, repeatable: true })).toBeUndefined()
  })

  it('retries a 409 only of a request with an Idempotency-Key (still in flight)', () => {
    const context = { retries: 0, settings, repeatable: true }
    expect(retryDelay(apiError(409), { ...context, idempotencyKey: true })).toBeTypeOf('number')
    expect(retryDelay(apiError(409), { ...context, idempotencyKey: false })).toBeUndefined()
  })

  it('waits as long as Retry-After says, and not at all when it is over maxRetryAfterMs', () => {
    const context = { retries: 0, settings, repeatable: true }
    expect(retryDelay(apiError(503, { 'retry-after': '3' }), context)).toBe(3000)
    expect(retryDelay(apiError(429, { 'retry-after': '3600' }), context)).toBeUndefined()
  })

  it('retries timeouts and connection failures, never usage errors or bad data', () => {
    const context = { retries: 0, settings, repeatable: true }
    expect(retryDelay(new TimeoutError('m', 'GET', 'u'), context)).toBeTypeOf('number')
    expect(retryDelay(new ConnectionError('m', 'GET', 'u'), context)).toBeTypeOf('number')
    expect(retryDelay(new TypeError('Invalid header'), context)).toBeUndefined()
    expect(retryDelay(new ValidationError('m', 'GET', 'u', '', null), context)).toBeUndefined()
  })

  it('retries nothing that is not repeatable, and nothing past maxRetries', () => {
    const error = new ConnectionError('m', 'POST', 'u')
    expect(retryDelay(error, { retries: 0, settings, repeatable: false })).toBeUndefined()
    expect(retryDelay(error, { retries: 2, settings, repeatable: true })).toBeUndefined()
    expect(retryDelay(error, { retries: 1, settings, repeatable: true })).toBeTypeOf('number')
  })
})

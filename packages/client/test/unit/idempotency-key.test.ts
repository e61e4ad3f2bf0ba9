import { describe, expect, it } from 'vitest'
import { newIdempotencyKey } from '../../src/idempotency-key.js'

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('newIdempotencyKey', () => {
  it('uses crypto.randomUUID where it exists', () => {
    expect(newIdempotencyKey()).toMatch(UUID_V4)
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey())
  })

  it('builds a v4 UUID from getRandomValues where randomUUID is missing (insecure contexts)', () => {
    const insecure = { getRandomValues: crypto.getRandomValues.bind(crypto) }
    const keys = Array.from({ length: 50 }, () => newIdempotencyKey(insecure))
    for (const key of keys) expect(key).toMatch(UUID_V4)
    expect(new Set(keys).size).toBe(50)
  })
})

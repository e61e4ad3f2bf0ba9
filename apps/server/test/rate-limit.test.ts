import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer({ settings: { rateLimit: 3 } })
})

afterAll(async () => {
  await server?.close()
})

describe('rate limit (RATE_LIMIT)', () => {
  it('is off by default', async () => {
    const plain = await startServer()
    try {
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => plain.app.inject({ url: '/tasks' })),
      )
      expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200))
      expect(responses[0]?.headers['x-ratelimit-limit']).toBeUndefined()
    } finally {
      await plain.close()
    }
  })

  it('counts down in x-ratelimit-* headers, then answers 429 in the Error shape with Retry-After', async () => {
    const remaining: unknown[] = []
    for (let i = 0; i < 3; i++) {
      const response = await server.app.inject({ url: '/tasks' })
      expect(response.statusCode).toBe(200)
      expect(response.headers['x-ratelimit-limit']).toBe('3')
      remaining.push(response.headers['x-ratelimit-remaining'])
    }
    expect(remaining).toEqual(['2', '1', '0'])

    const limited = await server.app.inject({
      method: 'POST',
      url: '/task',
      headers: { 'content-type': 'application/json' },
      payload: { name: 'over the limit' },
    })
    await expectError(
      limited,
      429,
      'Rate limit of 3 requests a minute exceeded; retry in 1 minute.',
    )
    expect(limited.headers['x-ratelimit-limit']).toBe('3')
    expect(limited.headers['x-ratelimit-remaining']).toBe('0')
    expect(Number(limited.headers['x-ratelimit-reset'])).toBeGreaterThan(0)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60)
  })

  it('keeps health and docs out of the limit', async () => {
    for (const url of ['/health/live', '/health/ready', '/openapi.json']) {
      expect((await server.app.inject({ url })).statusCode).toBe(200)
    }
  })

  it('counts each client address on its own', async () => {
    const response = await server.app.inject({ url: '/tasks', remoteAddress: '10.0.0.2' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['x-ratelimit-remaining']).toBe('2')
  })
})

describe('rate limit with credentials', () => {
  const ADMIN = 'rate-limit-admin-token'
  let guarded: TestServer

  beforeAll(async () => {
    guarded = await startServer({ settings: { rateLimit: 3, apiToken: ADMIN } })
  })

  afterAll(async () => {
    await guarded?.close()
  })

  /** A write token for `principal`, made by the admin (its request counts against the admin). */
  async function tokenFor(principal: string): Promise<string> {
    const made = await guarded.app.inject({
      method: 'POST',
      url: '/tokens',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      payload: { name: principal, principal },
    })
    return (made.json() as { token: string }).token
  }

  const listWith = (token: string) =>
    guarded.app.inject({ url: '/tasks', headers: { authorization: `Bearer ${token}` } })

  it("counts a principal's requests together, whichever of its tokens it sends, apart from others'", async () => {
    const [first, second, other] = [
      await tokenFor('limited'),
      await tokenFor('limited'),
      await tokenFor('unlimited'),
    ]
    const statuses = [
      (await listWith(first)).statusCode,
      (await listWith(second)).statusCode,
      (await listWith(first)).statusCode,
      (await listWith(second)).statusCode,
    ]
    expect(statuses).toEqual([200, 200, 200, 429])
    // Another principal from the same address has a limit of its own.
    expect((await listWith(other)).statusCode).toBe(200)
  })

  it('answers 429 to an address past the limit of refused credentials, before looking at the next', async () => {
    const refused = await Promise.all(
      Array.from({ length: 3 }, () => listWith('tl_guessed-token-that-does-not-exist')),
    )
    expect(refused.map((response) => response.statusCode)).toEqual([401, 401, 401])
    const next = await listWith('tl_another-guess')
    await expectError(next, 429, 'Rate limit of 3 requests a minute exceeded; retry in 1 minute.')
  })
})

import { describe, expect, it } from 'vitest'
import { newIdempotencyKey } from '../src/idempotency-key.js'
import { lines } from '../src/lines.js'
import { nextCursor } from '../src/link-header.js'
import { DEFAULT_RETRY, retryAfterMs, retrySettings } from '../src/retry.js'

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('nextCursor (Link header)', () => {
  it.each([
    ['</tasks?limit=2&after=7>; rel="next"', 7],
    ['</tasks?limit=2&after=7&tag=a%2Cb>; rel="next"', 7],
    ['<http://h/api/tasks?after=9>; rel=next', 9],
    ['</tasks?after=1>; rel="prev", </tasks?after=12>; rel="next last"', 12],
    ['</tasks?after=3>; title="x"; rel="next"', 3],
  ])('reads the next cursor from %s', (link, after) => {
    expect(nextCursor(link, 'after')).toBe(after)
  })

  it('reads before, the cursor of a newest-first page', () => {
    const link = '</tasks?limit=2&before=7&order=desc&after=2>; rel="next"'
    expect(nextCursor(link, 'before')).toBe(7)
    expect(nextCursor(link, 'after')).toBe(2)
  })

  it.each([
    [null],
    [''],
    ['</tasks?after=5>; rel="prev"'],
    ['</tasks?limit=5>; rel="next"'],
    ['</tasks?after=-1>; rel="next"'],
  ])('finds no next page in %s', (link) => {
    expect(nextCursor(link, 'after')).toBeUndefined()
  })
})

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

describe('lines (of a streamed body)', () => {
  /** The lines of a body that arrives in exactly these byte chunks. */
  async function read(chunks: number[][]): Promise<string[]> {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new Uint8Array(chunk))
        controller.close()
      },
    })
    const seen: string[] = []
    for await (const line of lines(new Response(body), () => {})) seen.push(line)
    return seen
  }
  const bytes = (text: string) => [...new TextEncoder().encode(text)]

  it('ends a line at \\n, \\r\\n or \\r, also when \\r\\n is split between chunks', async () => {
    expect(await read([bytes('a\nb\r'), bytes('\nc\rd'), bytes('\r\n\ne')])).toEqual([
      'a',
      'b',
      'c',
      'd',
      '',
      'e',
    ])
  })

  it('keeps a character whose UTF-8 bytes are split between chunks', async () => {
    const rocket = bytes('🚀\n')
    expect(await read([rocket.slice(0, 2), rocket.slice(2)])).toEqual(['🚀'])
  })
})

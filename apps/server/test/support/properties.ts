import { Agent } from 'node:http'
import { FormatRegistry, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { ErrorBody, Task, TaskName, TaskTag } from '@tasklane/contract'
import { type HttpResponse, httpRequest } from '@tasklane/testing/raw-http'
import fc from 'fast-check'
import { expect } from 'vitest'
import { startServer, type TestServer } from './server.js'

// What the property-based test files share: the run settings, a client that sends
// exactly the bytes generated, the invariants every response keeps, and generators.

/** Fixed seed and bounded runs: reproducible and fast; a failure prints the counterexample. */
export const SEED = 20_260_505
const TIME_LIMIT_MS = 8_000
/** Per test: the property's own time limit plus the requests around it. */
export const TEST_TIMEOUT_MS = 30_000

/** fast-check's settings for a property of `numRuns` runs, stopped after the time limit. */
export function runs(numRuns: number, timeLimitMs = TIME_LIMIT_MS) {
  return {
    seed: SEED,
    numRuns,
    interruptAfterTimeLimit: timeLimitMs,
    markInterruptAsFailure: false,
  }
}

// TypeBox checks `format` on strings only, and knows none by itself: the contract's are
// integer ranges and the timestamps' date-time (whose exact form its `pattern` gives).
FormatRegistry.Set('int32', (value) => /^-?\d+$/.test(value))
FormatRegistry.Set('int64', (value) => /^-?\d+$/.test(value))
FormatRegistry.Set(
  'date-time',
  (value) => !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value,
)

/**
 * The contract's Task, without `maxLength`: JSON Schema counts code points, TypeBox UTF-16
 * units, so 200 emoji would fail here. The contract's `pattern` bounds code points itself.
 */
function withoutMaxLength<T extends object>(schema: T): T {
  const { maxLength: _ignored, ...rest } = schema as T & { maxLength?: number }
  return rest as T
}
const TaskCheck = Type.Object(
  {
    ...Task.properties,
    name: withoutMaxLength(TaskName),
    tag: Type.Optional(withoutMaxLength(TaskTag)),
  },
  { additionalProperties: false },
)

/** A server for one property file, and a client that sends exactly the bytes generated. */
export interface PropertyServer {
  readonly server: TestServer
  /** One request with exactly these header lines (after Host) and body, on a keep-alive connection. */
  send(
    method: string,
    path: string,
    headers?: [string, string][],
    body?: string,
  ): Promise<HttpResponse>
  /** Closes the client's connections and the server. */
  close(): Promise<void>
}

/** Starts a server (a fresh database) with a client of a few keep-alive connections. */
export async function startPropertyServer(): Promise<PropertyServer> {
  const server = await startServer()
  const agent = new Agent({ keepAlive: true, maxSockets: 4 })
  const host = `127.0.0.1:${server.port}`
  return {
    server,
    send(method, path, headers = [], body) {
      const raw = ['host', host, ...headers.flat()]
      if (body !== undefined) raw.push('content-length', String(Buffer.byteLength(body)))
      return httpRequest(`${server.url}${path}`, { method, headers: raw, body, agent })
    },
    async close() {
      agent.destroy()
      await server.close()
    },
  }
}

/** The invariants of every response: no 5xx; a failure is exactly `{ code, message }`. */
export function expectWellFormed(reply: HttpResponse): unknown {
  expect(reply.status).toBeLessThan(500)
  expect(reply.headers['content-type']).toMatch(/^application\/json(;|$)/)
  const body = JSON.parse(reply.body) as unknown
  if (reply.status >= 300) {
    expect(Value.Check(ErrorBody, body)).toBe(true)
    expect(body).toEqual({ code: reply.status, message: expect.any(String) })
    expect((body as { message: string }).message).toMatch(/^\S.*[.?]$/s)
  }
  return body
}

/** Asserts a Task as the contract defines it. */
export function expectTask(value: unknown): asserts value is Task {
  expect(Value.Check(TaskCheck, value), JSON.stringify(value)).toBe(true)
}

/** Lone surrogates, U+0000, whitespace and other characters that must be handled exactly. */
const tricky = fc.constantFrom(
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\u0000',
  ' ',
  '\t',
  '\n',
  '\u00A0',
  '\u2028',
  '\uFEFF',
  '\u3000',
  '😀',
  '👩‍👩‍👧',
  'é',
  'é',
  '漢',
  'שלום',
  '\u202E',
  '"',
  '\\',
  '</script>',
)

/** Strings near the rules' edges: empty, blank, about the length limits, odd characters. */
export function nearText(max: number): fc.Arbitrary<string> {
  const mixed = fc
    .array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), tricky), { maxLength: 12 })
    .map((parts) => parts.join(''))
  const ofLength = (unit: fc.Arbitrary<string>) =>
    fc
      .tuple(unit, fc.integer({ min: max - 2, max: max + 2 }))
      .map(([c, n]) => c.repeat(Math.max(0, n)))
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }) },
    { weight: 4, arbitrary: mixed },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
    { weight: 2, arbitrary: ofLength(fc.constantFrom('a', '😀', '漢', ' ')) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t\n', '\u00A0\u3000') },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 60_000, max: 70_000 }).map((n) => 'x'.repeat(n)),
    },
  )
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The rule of docs/api.md for name (max 200) and tag (max 64), counted in code points. */
export function validText(value: unknown, max: number): value is string {
  if (typeof value !== 'string') return false
  const length = [...value].length
  return (
    length >= 1 &&
    length <= max &&
    /\S/u.test(value) &&
    !value.includes('\u0000') &&
    !LONE_SURROGATE.test(value)
  )
}

const TWO = 2n

/**
 * Decimal integers of any size, as written in a URL: small ones, the bounds of every
 * integer parameter (int32, 2^53-1, int64) and past them, 400 digits, either sign,
 * sometimes with leading zeros.
 */
export const decimalInteger: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      fc.bigInt({ min: -5n, max: 40n }),
      fc.bigInt({ min: -(TWO ** 70n), max: TWO ** 70n }),
      fc
        .constantFrom(TWO ** 31n, TWO ** 53n, TWO ** 63n, TWO ** 64n, 10n ** 400n)
        .chain((bound) => fc.bigInt({ min: bound - 2n, max: bound + 1n }))
        .chain((n) => fc.constantFrom(n, -n)),
    ),
    fc.oneof(
      { weight: 9, arbitrary: fc.constant('') },
      { weight: 1, arbitrary: fc.constant('00') },
    ),
  )
  .map(([n, zeros]) => (n < 0n ? `-${zeros}${-n}` : `${zeros}${n}`))

/**
 * What the server must answer for a decimal integer given as parameter `name` with the
 * range `min`..`max`: nothing to say (in range), or the 400 message naming the bound.
 */
export function integerRangeMessage(
  text: string,
  subject: string,
  min: bigint,
  max: bigint,
): string | undefined {
  const value = BigInt(text)
  if (value < min) return `${subject} must be at least ${min}.`
  if (value > max) return `${subject} must be at most ${max}.`
  return undefined
}

import { MAX_LIMIT, MAX_TASK_ID } from '@tasklane/contract'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTask } from './support/http.js'
import {
  decimalInteger,
  expectTask,
  expectWellFormed,
  integerRangeMessage,
  nearText,
  type PropertyServer,
  runs,
  startPropertyServer,
  TEST_TIMEOUT_MS,
} from './support/properties.js'

// GET /tasks with generated query strings, over real HTTP.

let target: PropertyServer

beforeAll(async () => {
  target = await startPropertyServer()
  // Tasks to list, some tagged, some done.
  for (const [i, tag] of ['docs', 'hostile', undefined, 'docs', undefined, 'hostile'].entries()) {
    const status = i % 3 === 1 ? 'done' : 'open'
    await createTask(
      target.server,
      tag === undefined ? { name: `listed ${i}`, status } : { name: `listed ${i}`, tag, status },
    )
  }
})

afterAll(() => target?.close())

/** Query-string keys: the real ones, near misses and prototype names. */
const queryKey = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('limit', 'after', 'before', 'order', 'tag', 'status'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'limt',
      'LIMIT',
      'Limit',
      '__proto__',
      '__proto__[x]',
      'constructor',
      'constructor[prototype][x]',
      'toString',
      'hasOwnProperty',
      'limit[]',
      'limit[0]',
      'tag.x',
      '',
      '%6Cimit',
      'l%69mit',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
)

const queryValue = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -2, max: 40 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '0',
      '1',
      String(MAX_LIMIT),
      String(MAX_LIMIT + 1),
      '9007199254740991',
      '9007199254740992',
      '99999999999999999999999',
      '1.5',
      '1e3',
      '0x10',
      '+1',
      '-0',
      '01',
      ' 1',
      '',
      'NaN',
      'Infinity',
      'a',
      'docs',
      'hostile',
      'asc',
      'desc',
      'open',
      'done',
    ),
  },
  { weight: 2, arbitrary: decimalInteger },
  { weight: 2, arbitrary: nearText(64).filter((s) => s.length < 200) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
)

/** How a key or value is written in the URL: encoded, form-encoded or as raw bytes. */
const encoding = fc.constantFrom('component', 'plus', 'raw', 'bytes')

function encode(text: string, how: string, bytes: number[]): string {
  switch (how) {
    case 'plus':
      return encodeComponent(text).replaceAll('%20', '+')
    case 'raw':
      // Characters the HTTP client can send as they are; the rest percent-encoded.
      return [...text]
        .map((c) => (/^[!$'()*,\-./0-9:;@A-Z_a-z~[\]]$/.test(c) ? c : encodeComponent(c)))
        .join('')
    case 'bytes':
      // Arbitrary percent-encoded bytes: invalid UTF-8, NUL, stray % signs.
      return `${encodeComponent(text)}${bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}%`
    default:
      return encodeComponent(text)
  }
}

/** encodeURIComponent, with lone surrogates (which it refuses) written as %ED%A0%80-style bytes. */
function encodeComponent(text: string): string {
  return [...text]
    .map((c) =>
      /^[\uD800-\uDFFF]$/.test(c)
        ? `%ED%${(0xa0 + ((c.charCodeAt(0) >> 6) & 0x1f)).toString(16)}%${(0x80 + (c.charCodeAt(0) & 0x3f)).toString(16)}`
        : encodeURIComponent(c),
    )
    .join('')
}

const queryPair = fc.record({
  key: queryKey,
  value: fc.option(queryValue, { freq: 8 }),
  keyEncoding: encoding,
  valueEncoding: encoding,
  bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 3 }),
})

describe('GET /tasks with generated query strings', () => {
  it(
    'never fails with a 5xx, answers every failure as { code, message }, and returns valid pages',
    async () => {
      const outcomes = new Set<number | string>()
      await fc.assert(
        fc.asyncProperty(
          fc.array(queryPair, { maxLength: 4 }),
          fc.constantFrom('&', '&&', ';'),
          async (pairs, separator) => {
            const query = pairs
              .map(({ key, value, keyEncoding, valueEncoding, bytes }) => {
                const k = encode(key, keyEncoding, keyEncoding === 'bytes' ? bytes : [])
                return value === null
                  ? k
                  : `${k}=${encode(value, valueEncoding, valueEncoding === 'bytes' ? bytes : [])}`
              })
              .join(separator)
            const reply = await target.send('GET', `/tasks?${query}`)
            const answer = expectWellFormed(reply)
            outcomes.add(
              reply.status === 200 && (answer as unknown[]).length > 0 ? 'tasks' : reply.status,
            )

            const plain = pairs.every(
              (p) => p.keyEncoding !== 'bytes' && p.valueEncoding !== 'bytes' && separator !== ';',
            )
            const keys = pairs.map((p) => p.key)
            const known = ['limit', 'after', 'before', 'order', 'tag', 'status']
            if (plain && keys.some((k) => k !== '' && !known.includes(k))) {
              expect(reply.status).toBe(400)
            }
            if (plain && new Set(keys).size < keys.length) expect(reply.status).toBe(400)
            if (reply.status !== 200) {
              expect(reply.status).toBe(400)
              return
            }
            expect(Array.isArray(answer)).toBe(true)
            const tasks = answer as unknown[]
            for (const task of tasks) expectTask(task)
            const ids = (tasks as { id: number }[]).map((task) => task.id)
            const ascending = [...new Set(ids)].sort((a, b) => a - b)
            // Descending only when the query says so (in a form the server reads as it).
            const desc = ids.length > 1 && (ids[0] as number) > (ids[1] as number)
            expect(ids).toEqual(desc ? ascending.reverse() : ascending)
            if (!plain) return
            const given = Object.fromEntries(pairs.map((p) => [p.key, p.value]))
            expect(desc).toBe(desc && given.order === 'desc')
            if (given.before !== undefined) {
              for (const id of ids) expect(id).toBeLessThan(Number(given.before))
            }
            if (given.limit !== undefined)
              expect(tasks.length).toBeLessThanOrEqual(Number(given.limit))
            if (given.after !== undefined) {
              for (const id of ids) expect(id).toBeGreaterThan(Number(given.after))
            }
            if (given.tag !== undefined) {
              for (const task of tasks) expect((task as { tag?: string }).tag).toBe(given.tag)
            }
            if (given.status !== undefined) {
              for (const task of tasks)
                expect((task as { status: string }).status).toBe(given.status)
            }
          },
        ),
        runs(500),
      )
      expect([...outcomes].sort()).toEqual([200, 400, 'tasks'])
    },
    TEST_TIMEOUT_MS,
  )
})

describe('GET /tasks with integers of any size', () => {
  it(
    'accepts limit, after and before exactly within their ranges, and names the bound otherwise',
    async () => {
      const ranges = {
        limit: [0n, BigInt(MAX_LIMIT)],
        after: [0n, BigInt(MAX_TASK_ID)],
        before: [1n, BigInt(MAX_TASK_ID)],
      } as const
      const outcomes = new Set<string>()
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('limit', 'after', 'before'),
          decimalInteger,
          async (name, value) => {
            const reply = await target.send('GET', `/tasks?${name}=${value}`)
            const answer = expectWellFormed(reply)
            const [min, max] = ranges[name]
            const message = integerRangeMessage(value, `Query parameter "${name}"`, min, max)
            outcomes.add(`${name} ${/at (least|most)/.exec(message ?? '')?.[0] ?? 'in range'}`)
            if (message === undefined) {
              expect(reply.status).toBe(200)
              for (const task of answer as unknown[]) expectTask(task)
            } else {
              expect(answer).toEqual({ code: 400, message })
            }
          },
        ),
        runs(400),
      )
      // Every parameter met values below, within and above its range.
      expect([...outcomes].sort()).toEqual(
        ['after', 'before', 'limit'].flatMap((name) =>
          ['at least', 'at most', 'in range'].map((o) => `${name} ${o}`),
        ),
      )
    },
    TEST_TIMEOUT_MS,
  )
})

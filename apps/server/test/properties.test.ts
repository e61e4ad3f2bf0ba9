import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { FormatRegistry, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { ErrorBody, MAX_LIMIT, Task, TaskName, TaskTag } from '@tasklane/contract'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from './helpers.js'

/**
 * Property-based tests over real HTTP: generated bodies, query strings, content types and
 * Idempotency-Key headers. Fixed seeds and bounded runs keep them reproducible and fast;
 * a failure prints the seed and the shrunk counterexample.
 */

const SEED = 20_260_505
const TIME_LIMIT_MS = 8_000
/** Per test: the property's own limit plus the requests around it. */
const TEST_TIMEOUT_MS = 30_000
const BODY_LIMIT = 64 * 1024

// TypeBox checks `format` on strings only; the contract's formats are integer ranges.
FormatRegistry.Set('int32', (value) => /^-?\d+$/.test(value))
FormatRegistry.Set('int64', (value) => /^-?\d+$/.test(value))

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

interface Reply {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

let server: TestServer
const agent = new Agent({ keepAlive: true, maxSockets: 4 })

/** Every task the server acknowledged with 201, by id. */
const created = new Map<number, { name: string; tag?: string }>()
/** Idempotency keys the server accepted, with the body and id of the first create. */
const usedKeys = new Map<string, { name: string; tag?: string; id: number }>()

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  agent.destroy()
  await server?.close()
})

/** One request with exactly these header lines and body bytes. */
function send(
  method: string,
  path: string,
  headers: [string, string][] = [],
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const raw = ['host', `127.0.0.1:${server.port}`, ...headers.flat()]
    if (body !== undefined) raw.push('content-length', String(Buffer.byteLength(body)))
    const req = httpRequest(
      { host: '127.0.0.1', port: server.port, method, path, headers: raw, agent },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** The invariants of every response: no 5xx; a failure is exactly `{ code, message }`. */
function expectWellFormed(reply: Reply): unknown {
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

function expectTask(value: unknown): asserts value is { id: number; name: string; tag?: string } {
  expect(Value.Check(TaskCheck, value), JSON.stringify(value)).toBe(true)
}

// ---------------------------------------------------------------------------------------
// Generators

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
function nearText(max: number): fc.Arbitrary<string> {
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

/** Code points, counting a lone surrogate as one. */
const codePoints = (s: string) => [...s].length
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The decisions.md rule for name (max 200) and tag (max 64). */
function validText(value: unknown, max: number): value is string {
  return (
    typeof value === 'string' &&
    codePoints(value) >= 1 &&
    codePoints(value) <= max &&
    /\S/u.test(value) &&
    !value.includes('\u0000') &&
    !LONE_SURROGATE.test(value)
  )
}

const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
)

const extraKey = fc.oneof(
  fc.constantFrom('id', 'tags', 'done', 'Name', 'name ', 'TAG', '', 'constructor', 'toString'),
  fc.string({ maxLength: 6 }),
)

/** Objects shaped like a NewTask: near-valid fields, wrong types, missing or extra keys. */
const nearTask = fc
  .record(
    {
      name: fc.oneof({ weight: 5, arbitrary: nearText(200) }, { weight: 1, arbitrary: wrongType }),
      tag: fc.oneof({ weight: 5, arbitrary: nearText(64) }, { weight: 1, arbitrary: wrongType }),
      extra: fc.oneof(
        { weight: 4, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc.dictionary(extraKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
        },
      ),
    },
    { requiredKeys: [] },
  )
  .map(({ name, tag, extra }) => {
    const task: Record<string, unknown> = {}
    // JSON.parse, like the server, makes "__proto__" an own key; so does defineProperty.
    for (const [key, value] of Object.entries(extra ?? {})) {
      Object.defineProperty(task, key, { value, enumerable: true, writable: true })
    }
    if (name !== undefined) task.name = name
    if (tag !== undefined) task.tag = tag
    return task
  })

/** Tasks that must be created: any characters but the forbidden ones. */
const validTask = fc.record(
  {
    name: fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 200 })
      .filter((s) => validText(s, 200)),
    tag: fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 64 })
      .filter((s) => validText(s, 64)),
  },
  { requiredKeys: ['name'] },
)

/** Request bodies as the bytes to send: mostly JSON (lone surrogates escaped), some not. */
const bodyText = fc.oneof(
  { weight: 5, arbitrary: validTask.map((task) => JSON.stringify(task)) },
  // JSON.stringify writes a lone surrogate as the escape `\ud800`, never as broken UTF-8.
  { weight: 10, arbitrary: nearTask.map((task) => JSON.stringify(task)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'null',
      '{',
      '{"name":"a",}',
      '{"name":"a"}garbage',
      '{"name":"a","name":"b"}',
      '{"__proto__":{"x":1},"name":"a"}',
      '{"name":"a","constructor":{"prototype":{"x":1}}}',
      '{"name":"\\ud800"}',
      '{"name":"a\\u0000b"}',
      '\uFEFF{"name":"a"}',
    ),
  },
)

/** Random upper/lower case of each letter. */
function randomCase(text: string): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((flips) =>
      [...text].map((c, i) => (flips[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
    )
}

const ows = fc.constantFrom('', ' ', '\t', '  ')

/** Content-Type values the server accepts: application/json with optional parameters. */
const jsonContentType = fc
  .tuple(
    ows,
    randomCase('application/json'),
    fc.constantFrom(
      '',
      ';',
      '; charset=utf-8',
      ';charset=UTF-8',
      ' ; charset=utf-8',
      ';\tcharset="utf-8"',
      '; foo=bar',
      '; charset=utf-8; q=1',
    ),
    ows,
  )
  .map((parts) => parts.join(''))

/** Content-Type values the server refuses with 415. */
const otherContentType = fc.oneof(
  fc
    .tuple(
      randomCase('application/json'),
      fc.constantFrom(
        'x',
        '-patch+json',
        '\tfoo',
        ',text/plain',
        '/x',
        '5',
        ' json',
        '+xml',
        ', application/json',
      ),
    )
    .map(([type, suffix]) => type + suffix),
  fc.constantFrom(
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/problem+json',
    'application/vnd.api+json',
    'application/merge-patch+json',
    'text/plain; application/json',
    'application',
    'json',
    '*/*',
    'application/*',
    '',
  ),
)

/** Idempotency-Key values as sent (what Node's client allows in a header). */
const idempotencyKey = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map(String.fromCharCode), minLength: 1 }),
  fc.stringMatching(/^[\x21-\x7e]{1,8}$/).map((key) => `k-${key}`),
  // Any byte a header line may carry (Node's client refuses DEL and control characters).
  fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength: 8,
  }),
  fc.integer({ min: 254, max: 257 }).map((n) => 'K'.repeat(n)),
  // Non-ASCII goes out as its UTF-8 bytes, which is what a header line can carry.
  fc.constantFrom('', ' ', 'a b', '\tkey', Buffer.from('ключ').toString('latin1'), 'ä'),
)

/** What the server sees of a header value: the HTTP parser drops surrounding spaces and tabs. */
const headerValue = (value: string) => value.replace(/^[ \t]+|[ \t]+$/g, '')

const validKey = (key: string) => /^[\x21-\x7e]{1,255}$/.test(key)

// ---------------------------------------------------------------------------------------

describe('POST /task with generated input', () => {
  it(
    'never fails with a 5xx, answers every failure as { code, message }, and creates exactly the valid tasks',
    async () => {
      const statuses = new Set<number>()
      await fc.assert(
        fc.asyncProperty(
          bodyText,
          fc.oneof(
            { weight: 6, arbitrary: jsonContentType },
            { weight: 1, arbitrary: otherContentType },
          ),
          fc.option(idempotencyKey, { freq: 3 }),
          async (body, contentType, key) => {
            const headers: [string, string][] = [['content-type', contentType]]
            if (key !== null) headers.push(['idempotency-key', key])
            const reply = await send('POST', '/task', headers, body)
            const answer = expectWellFormed(reply)
            statuses.add(reply.status)

            const jsonType = /^[ \t]*application\/json[ \t]*(;.*)?$/is.test(contentType)
            let parsed: unknown
            try {
              parsed = JSON.parse(body)
            } catch {
              parsed = undefined
            }
            const isTask =
              parsed !== null &&
              typeof parsed === 'object' &&
              !Array.isArray(parsed) &&
              Object.keys(parsed).every((k) => k === 'name' || k === 'tag') &&
              validText((parsed as { name?: unknown }).name, 200) &&
              (!Object.hasOwn(parsed, 'tag') || validText((parsed as { tag?: unknown }).tag, 64))
            const sentKey = key === null ? undefined : headerValue(key)

            if (!jsonType) {
              expect(reply.status).toBe(415)
            } else if (Buffer.byteLength(body) > BODY_LIMIT) {
              expect(reply.status).toBe(413)
            } else if (!isTask || (sentKey !== undefined && !validKey(sentKey))) {
              expect(reply.status).toBe(400)
            } else {
              const task = parsed as { name: string; tag?: string }
              const first = sentKey === undefined ? undefined : usedKeys.get(sentKey)
              if (first && (first.name !== task.name || first.tag !== task.tag)) {
                expect(reply.status).toBe(422)
                return
              }
              expect(reply.status).toBe(201)
              expectTask(answer)
              expect(answer).toStrictEqual({ id: answer.id, ...task })
              expect(reply.headers.location).toBe(`/tasks/${answer.id}`)
              if (first) {
                expect(answer.id).toBe(first.id)
                expect(reply.headers['idempotent-replayed']).toBe('true')
              } else {
                expect(created.has(answer.id)).toBe(false)
                expect(reply.headers['idempotent-replayed']).toBeUndefined()
              }
              created.set(answer.id, task)
              if (sentKey !== undefined && !first) usedKeys.set(sentKey, { ...task, id: answer.id })
            }
          },
        ),
        {
          seed: SEED,
          numRuns: 1000,
          interruptAfterTimeLimit: TIME_LIMIT_MS,
          markInterruptAsFailure: false,
        },
      )
      expect(created.size).toBeGreaterThan(100)
      // The generators reach every outcome, so each branch above was really checked.
      expect([...statuses].sort()).toEqual([201, 400, 413, 415, 422])
    },
    TEST_TIMEOUT_MS,
  )

  it('lists every acknowledged task exactly once, unchanged, and nothing else', async () => {
    const reply = await send('GET', '/tasks')
    const tasks = expectWellFormed(reply) as unknown[]
    expect(reply.status).toBe(200)
    for (const task of tasks) expectTask(task)
    const listed = tasks as { id: number; name: string; tag?: string }[]
    const ids = listed.map((task) => task.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Map(listed.map(({ id, ...task }) => [id, task]))).toEqual(created)
  })
})

/** Query-string keys: the real ones, near misses and prototype names. */
const queryKey = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('limit', 'after', 'tag') },
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
    ),
  },
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
  beforeAll(async () => {
    // A few tasks to list, some tagged, beside those the POST property created.
    for (const tag of ['docs', 'hostile', undefined, 'docs']) {
      const task = tag === undefined ? { name: 'listed' } : { name: 'listed', tag }
      const reply = await send(
        'POST',
        '/task',
        [['content-type', 'application/json']],
        JSON.stringify(task),
      )
      expect(reply.status).toBe(201)
    }
  })

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
            const reply = await send('GET', `/tasks?${query}`)
            const answer = expectWellFormed(reply)
            outcomes.add(
              reply.status === 200 && (answer as unknown[]).length > 0 ? 'tasks' : reply.status,
            )

            const plain = pairs.every(
              (p) => p.keyEncoding !== 'bytes' && p.valueEncoding !== 'bytes' && separator !== ';',
            )
            const keys = pairs.map((p) => p.key)
            if (plain && keys.some((k) => k !== '' && !['limit', 'after', 'tag'].includes(k))) {
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
            expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b))
            if (!plain) return
            const given = Object.fromEntries(pairs.map((p) => [p.key, p.value]))
            if (given.limit !== undefined)
              expect(tasks.length).toBeLessThanOrEqual(Number(given.limit))
            if (given.after !== undefined) {
              for (const id of ids) expect(id).toBeGreaterThan(Number(given.after))
            }
            if (given.tag !== undefined) {
              for (const task of tasks) expect((task as { tag?: string }).tag).toBe(given.tag)
            }
          },
        ),
        {
          seed: SEED,
          numRuns: 500,
          interruptAfterTimeLimit: TIME_LIMIT_MS,
          markInterruptAsFailure: false,
        },
      )
      expect([...outcomes].sort()).toEqual([200, 400, 'tasks'])
    },
    TEST_TIMEOUT_MS,
  )
})

describe('GET /tasks/{id} with generated ids', () => {
  it(
    'answers 200 with a Task, 404 or 400, and never anything else',
    async () => {
      const idText = fc.oneof(
        fc.integer({ min: -5, max: 5000 }).map(String),
        fc.constantFrom(
          '0',
          '1.0',
          '1e2',
          '9007199254740992',
          '99999999999999999999',
          '%31',
          'x',
          '%00',
          '%F0%9F%98%80',
        ),
        fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 6 }).map(encodeURIComponent),
      )
      await fc.assert(
        fc.asyncProperty(idText, async (id) => {
          const reply = await send('GET', `/tasks/${id}`)
          const answer = expectWellFormed(reply)
          expect([200, 400, 404]).toContain(reply.status)
          if (reply.status === 200) {
            expectTask(answer)
            expect(answer.id).toBe(Number(decodeURIComponent(id)))
          }
        }),
        {
          seed: SEED,
          numRuns: 300,
          interruptAfterTimeLimit: TIME_LIMIT_MS / 2,
          markInterruptAsFailure: false,
        },
      )
    },
    TEST_TIMEOUT_MS,
  )
})

import type { Task } from '@tasklane/contract'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BODY_LIMIT } from '../src/app.js'
import { aTask } from './support/http.js'
import {
  expectTask,
  expectWellFormed,
  nearText,
  type PropertyServer,
  runs,
  startPropertyServer,
  TEST_TIMEOUT_MS,
  validText,
} from './support/properties.js'

// POST /task with generated bodies, Content-Types and Idempotency-Keys, over real HTTP.

let target: PropertyServer

/** A NewTask as sent. */
type Sent = { name: string; tag?: string; status?: 'open' | 'done' }
/** Every task the server acknowledged with 201, by id, as it answered it. */
const created = new Map<number, Task>()
/** Idempotency keys the server accepted, with the body and the answer of the first create. */
const usedKeys = new Map<string, { sent: Sent; answer: Task }>()

beforeAll(async () => {
  target = await startPropertyServer()
})

afterAll(() => target?.close())

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
      status: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('open', 'done') },
        { weight: 1, arbitrary: fc.constantFrom('Open', 'closed', 'deleted', '') },
        { weight: 1, arbitrary: wrongType },
      ),
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
  .map(({ name, tag, status, extra }) => {
    const task: Record<string, unknown> = {}
    // JSON.parse, like the server, makes "__proto__" an own key; so does defineProperty.
    for (const [key, value] of Object.entries(extra ?? {})) {
      Object.defineProperty(task, key, { value, enumerable: true, writable: true })
    }
    if (name !== undefined) task.name = name
    if (tag !== undefined) task.tag = tag
    if (status !== undefined) task.status = status
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
    status: fc.constantFrom('open', 'done'),
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
            const reply = await target.send('POST', '/task', headers, body)
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
              Object.keys(parsed).every((k) => k === 'name' || k === 'tag' || k === 'status') &&
              validText((parsed as { name?: unknown }).name, 200) &&
              (!Object.hasOwn(parsed, 'tag') || validText((parsed as { tag?: unknown }).tag, 64)) &&
              (!Object.hasOwn(parsed, 'status') ||
                ['open', 'done'].includes((parsed as { status?: unknown }).status as string))
            const sentKey = key === null ? undefined : headerValue(key)

            if (!jsonType) {
              expect(reply.status).toBe(415)
            } else if (Buffer.byteLength(body) > BODY_LIMIT) {
              expect(reply.status).toBe(413)
            } else if (!isTask || (sentKey !== undefined && !validKey(sentKey))) {
              expect(reply.status).toBe(400)
            } else {
              const task = parsed as Sent
              const first = sentKey === undefined ? undefined : usedKeys.get(sentKey)
              const { sent } = first ?? {}
              if (
                sent &&
                (sent.name !== task.name || sent.tag !== task.tag || sent.status !== task.status)
              ) {
                expect(reply.status).toBe(422)
                return
              }
              expect(reply.status).toBe(201)
              expectTask(answer)
              expect(answer).toStrictEqual(aTask({ id: answer.id, ...task }))
              expect(reply.headers.location).toBe(`/tasks/${answer.id}`)
              if (first) {
                expect(answer).toStrictEqual(first.answer)
                expect(reply.headers['idempotent-replayed']).toBe('true')
              } else {
                expect(created.has(answer.id)).toBe(false)
                expect(reply.headers['idempotent-replayed']).toBeUndefined()
              }
              created.set(answer.id, answer)
              if (sentKey !== undefined && !first) usedKeys.set(sentKey, { sent: task, answer })
            }
          },
        ),
        runs(1000),
      )
      expect(created.size).toBeGreaterThan(100)
      // The generators reach every outcome, so each branch above was really checked.
      expect([...statuses].sort()).toEqual([201, 400, 413, 415, 422])
    },
    TEST_TIMEOUT_MS,
  )

  it('lists every acknowledged task exactly once, unchanged, and nothing else', async () => {
    const reply = await target.send('GET', '/tasks')
    const tasks = expectWellFormed(reply) as unknown[]
    expect(reply.status).toBe(200)
    for (const task of tasks) expectTask(task)
    const listed = tasks as Task[]
    const ids = listed.map((task) => task.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Map(listed.map((task) => [task.id, task]))).toEqual(created)
  })
})

import type { Task } from '@tasklane/contract'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  expectWellFormed,
  nearText,
  type PropertyServer,
  runs,
  startPropertyServer,
  TEST_TIMEOUT_MS,
  validText,
} from './support/properties.js'

// PATCH and DELETE /tasks/{id} with generated bodies, ids, Content-Types and conditions,
// over real HTTP: never a 5xx, every failure in the Error shape, and a task changes only
// when the request was valid and its condition held, exactly as the patch says.

let target: PropertyServer
/** Tasks made at the start: the ids most requests name. */
const TASKS = 40
/** The tasks as this test last saw the server answer them: the truth to compare with. */
const known = new Map<number, Task | 'deleted'>()

beforeAll(async () => {
  target = await startPropertyServer()
  for (let i = 0; i < TASKS; i++) {
    const reply = await target.send(
      'POST',
      '/task',
      [['content-type', 'application/json']],
      JSON.stringify({ name: `task ${i}`, ...(i % 2 ? { tag: 'odd' } : {}) }),
    )
    const task = JSON.parse(reply.body) as Task
    known.set(task.id, task)
  }
})

afterAll(() => target?.close())

const wrongType = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
)

/** Objects shaped like a patch: near-valid fields, nulls, wrong types, extra keys. */
const nearPatch = fc
  .record(
    {
      name: fc.oneof(
        { weight: 4, arbitrary: nearText(200) },
        { weight: 1, arbitrary: fc.oneof(wrongType, fc.constant(null)) },
      ),
      tag: fc.oneof(
        { weight: 4, arbitrary: nearText(64) },
        { weight: 2, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: wrongType },
      ),
      status: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('open', 'done') },
        { weight: 1, arbitrary: fc.constantFrom('Open', 'closed', '', null, 1) },
      ),
      extra: fc.oneof(
        { weight: 5, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc.dictionary(
            fc.constantFrom(
              'id',
              'version',
              'createdAt',
              'updatedAt',
              'done',
              '__proto__',
              'constructor',
              'Name',
            ),
            fc.jsonValue({ maxDepth: 1 }),
            { maxKeys: 2 },
          ),
        },
      ),
    },
    { requiredKeys: [] },
  )
  .map(({ extra, ...fields }) => {
    const patch: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(extra ?? {})) {
      Object.defineProperty(patch, key, { value, enumerable: true, writable: true })
    }
    return Object.assign(patch, fields)
  })

/** Patches that must apply: valid fields only, at least one. */
const validPatch = fc
  .record(
    {
      name: fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
        .filter((s) => validText(s, 200)),
      tag: fc.oneof(fc.constant(null), fc.constantFrom('odd', 'even', 'ünï', '🚀')),
      status: fc.constantFrom('open', 'done'),
    },
    { requiredKeys: [] },
  )
  .filter((patch) => Object.keys(patch).length > 0)

const body = fc.oneof(
  { weight: 8, arbitrary: validPatch.map((patch) => JSON.stringify(patch)) },
  { weight: 8, arbitrary: nearPatch.map((patch) => JSON.stringify(patch)) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '{',
      'null',
      '[]',
      '{"name":"\\ud800"}',
      '{"tag":"a\\u0000"}',
      '\uFEFF{}',
    ),
  },
)

const contentType = fc.constantFrom(
  'application/merge-patch+json',
  'application/merge-patch+json',
  'application/merge-patch+json',
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  '',
)

const ifMatch = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 4 }).map((v) => `"${v}"`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '*',
      'W/"1"',
      '"1", "2", "3"',
      'garbage',
      '"1',
      '3',
      '*, "1"',
      '"a"',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
)

const id = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: TASKS + 2 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('0', '-1', 'abc', '1.5', '9007199254740992', '1e3', '%00', ''),
  },
)

/** What `patch` does to `task`, if it is a valid patch that names at least one field. */
function applied(task: Task, patch: unknown): Task | undefined {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return undefined
  const entries = Object.entries(patch)
  if (entries.length === 0) return undefined
  const next: Record<string, unknown> = { ...task }
  for (const [key, value] of entries) {
    if (key === 'name' && validText(value, 200)) next.name = value
    else if (key === 'tag' && value === null) delete next.tag
    else if (key === 'tag' && validText(value, 64)) next.tag = value
    else if (key === 'status' && (value === 'open' || value === 'done')) next.status = value
    else return undefined
  }
  return next as Task
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

describe('PATCH and DELETE /tasks/{id} with generated requests', () => {
  it(
    'never fail with a 5xx, answer every failure as { code, message }, and change a task exactly as asked or not at all',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat(39).map((n) => n === 0),
          id,
          body,
          contentType,
          ifMatch,
          async (isDelete, path, text, type, condition) => {
            const headers: [string, string][] = []
            if (type !== '') headers.push(['content-type', type])
            if (condition !== undefined) headers.push(['if-match', condition])
            const reply = await target.send(
              isDelete ? 'DELETE' : 'PATCH',
              `/tasks/${path}`,
              headers,
              isDelete ? undefined : text,
            )
            expect(reply.status).toBeLessThan(500)
            if (reply.status !== 204) expectWellFormed(reply)
            const taskId = Number(path)
            const before = known.get(taskId)
            if (reply.status === 204 || reply.status === 200) {
              expect(before, `a change to ${path}, which was ${JSON.stringify(before)}`).toBeTypeOf(
                'object',
              )
              if (reply.status === 204) {
                known.set(taskId, 'deleted')
                return
              }
              const after = JSON.parse(reply.body) as Task
              const expected = applied(before as Task, parse(text))
              expect(expected, `a 200 for ${text}`).toBeDefined()
              const changed =
                JSON.stringify({ ...expected, updatedAt: 0 }) !==
                JSON.stringify({ ...(before as Task), updatedAt: 0 })
              // completedAt is the server's: set when a task becomes done, gone when reopened.
              const completed = (expected as Task).status === 'done'
              const completedAt =
                (before as Task).status === 'done'
                  ? (before as Task).completedAt
                  : after.completedAt
              if (completed) expect(completedAt).toBe(after.completedAt)
              const { completedAt: _, ...rest } = expected as Task
              expect(after).toEqual({
                ...rest,
                ...(completed ? { completedAt: after.completedAt } : {}),
                version: (before as Task).version + (changed ? 1 : 0),
                updatedAt: changed ? after.updatedAt : (before as Task).updatedAt,
              })
              if (completed && (before as Task).status === 'open') {
                expect(after.completedAt).toBe(after.updatedAt)
              }
              known.set(taskId, after)
              return
            }
            // Refused: the task is as it was.
            if (before !== undefined && before !== 'deleted') {
              const now = await target.send('GET', `/tasks/${taskId}`)
              expect(JSON.parse(now.body)).toEqual(before)
            }
          },
        ),
        runs(300),
      )
    },
    TEST_TIMEOUT_MS * 2,
  )
})

import { MAX_TASK_ID } from '@tasklane/contract'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTask } from './support/http.js'
import {
  decimalInteger,
  expectTask,
  expectWellFormed,
  integerRangeMessage,
  type PropertyServer,
  runs,
  startPropertyServer,
  TEST_TIMEOUT_MS,
} from './support/properties.js'

// GET /tasks/{id} with generated ids, over real HTTP.

let target: PropertyServer

beforeAll(async () => {
  target = await startPropertyServer()
  for (let i = 0; i < 5; i++) await createTask(target.server, { name: `task ${i}` })
})

afterAll(() => target?.close())

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
          const reply = await target.send('GET', `/tasks/${id}`)
          const answer = expectWellFormed(reply)
          expect([200, 400, 404]).toContain(reply.status)
          if (reply.status === 200) {
            expectTask(answer)
            expect(answer.id).toBe(Number(decodeURIComponent(id)))
          }
        }),
        runs(300, 4_000),
      )
    },
    TEST_TIMEOUT_MS,
  )
})

describe('GET /tasks/{id} with integers of any size', () => {
  it(
    'reads ids from 1 to 2^53-1, names the bound otherwise, and refuses a segment over 384 characters with 414',
    async () => {
      const statuses = new Set<number>()
      await fc.assert(
        fc.asyncProperty(decimalInteger, async (id) => {
          const reply = await target.send('GET', `/tasks/${id}`)
          const answer = expectWellFormed(reply)
          statuses.add(reply.status)
          if (id.length > 384) {
            expect(answer).toEqual({
              code: 414,
              message: 'A segment of the URL path is longer than 384 characters.',
            })
            return
          }
          const message = integerRangeMessage(id, 'Path parameter "id"', 1n, BigInt(MAX_TASK_ID))
          if (message !== undefined) expect(answer).toEqual({ code: 400, message })
          else if (reply.status === 200) {
            expectTask(answer)
            expect(answer.id).toBe(Number(id))
          } else {
            expect(answer).toEqual({ code: 404, message: `Task ${BigInt(id)} does not exist.` })
          }
        }),
        runs(400),
      )
      expect([...statuses].sort()).toEqual([200, 400, 404, 414])
    },
    TEST_TIMEOUT_MS,
  )
})

import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DatabaseUnavailableError,
  IdempotencyConflictError,
  KeyInFlightError,
  PreconditionFailedError,
  ShuttingDownError,
  TaskNotFoundError,
  WriteQueueFullError,
} from '../src/domain/domain-errors.js'
import { HttpError } from '../src/http/http-error.js'
import errors from '../src/plugins/errors.js'
import { expectError } from './support/http.js'

/** The errors plugin alone, and one route that throws whatever the test hands it. */
const app = Fastify()
let thrown: unknown

beforeAll(async () => {
  await app.register(errors)
  app.get('/throw', async () => {
    throw thrown
  })
  await app.ready()
})

afterAll(() => app.close())

async function answerTo(error: unknown) {
  thrown = error
  return app.inject({ url: '/throw' })
}

describe('plugins/errors: the one place errors become responses', () => {
  it.each([
    ['TaskNotFoundError', new TaskNotFoundError(7), 404, 'Task 7 does not exist.'],
    [
      'KeyInFlightError',
      new KeyInFlightError(),
      409,
      'A request with this Idempotency-Key is still in progress; retry after it completes.',
    ],
    [
      'IdempotencyConflictError',
      new IdempotencyConflictError(),
      422,
      'This Idempotency-Key was already used with a different request (another method, task or body).',
    ],
  ])('answers %s with %i and its message', async (_, error, status, message) => {
    const response = await answerTo(error)
    await expectError(response, status, message)
    expect(response.headers['retry-after']).toBeUndefined()
  })

  it('answers PreconditionFailedError with 412 and the current ETag', async () => {
    const response = await answerTo(new PreconditionFailedError(7, 3))
    await expectError(
      response,
      412,
      'Task 7 has changed: its current ETag is "3", which If-Match does not name; nothing was changed.',
    )
    expect(response.headers.etag).toBe('"3"')
  })

  it.each([
    [
      'DatabaseUnavailableError',
      new DatabaseUnavailableError(),
      'The database is not reachable; retry the request shortly.',
    ],
    [
      'WriteQueueFullError',
      new WriteQueueFullError(),
      'Too many writes are waiting; retry the request shortly.',
    ],
  ])('answers %s with 503 and Retry-After: 1', async (_, error, message) => {
    const response = await answerTo(error)
    await expectError(response, 503, message)
    expect(response.headers['retry-after']).toBe('1')
    expect(response.headers.connection).not.toBe('close')
  })

  it.each([
    [
      'EMFILE',
      'too many open files, open',
      'The server is too busy; retry the request shortly.',
      '1',
    ],
    ['ENFILE', 'file table overflow', 'The server is too busy; retry the request shortly.', '1'],
    [
      'SQLITE_READONLY',
      'attempt to write a readonly database',
      'The database cannot be written to (it is read-only); retry the request later.',
      '10',
    ],
  ])(
    'answers %s, however deep in the causes, with 503 and Retry-After, naming no path',
    async (code, words, message, retryAfter) => {
      const cause = Object.assign(new Error(`${code}: ${words}, '/srv/app/data/tasks.db'`), {
        code,
      })
      const response = await answerTo(new Error('the write failed', { cause }))
      await expectError(response, 503, message)
      expect(response.headers['retry-after']).toBe(retryAfter)
    },
  )

  it('answers ShuttingDownError with 503, Retry-After: 1 and Connection: close', async () => {
    const response = await answerTo(new ShuttingDownError())
    await expectError(response, 503, 'The server is shutting down; retry the request.')
    expect(response.headers['retry-after']).toBe('1')
    expect(response.headers.connection).toBe('close')
  })

  it('answers an HttpError with its status, message and headers', async () => {
    const response = await answerTo(
      new HttpError(401, 'Who are you?', { 'WWW-Authenticate': 'Bearer' }),
    )
    await expectError(response, 401, 'Who are you?')
    expect(response.headers['www-authenticate']).toBe('Bearer')
  })

  it('answers anything else with a 500 that reveals no message, stack, SQL or path', async () => {
    const cause = new DatabaseUnavailableError()
    const response = await answerTo(
      Object.assign(new Error('select * from tasks failed at /srv/app/src/storage.ts:12'), {
        cause,
      }),
    )
    await expectError(response, 500, 'Internal server error.')
    expect(response.body).not.toMatch(/select|\/srv|\.ts/)
  })
})

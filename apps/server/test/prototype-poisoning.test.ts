import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

afterEach(() => {
  // Nothing the server parsed may have reached the prototype of every object.
  expect(({} as Record<string, unknown>).x).toBeUndefined()
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  expect(Object.prototype).not.toHaveProperty('x')
})

const postTask = (payload: string, key?: string) =>
  server.app.inject({
    method: 'POST',
    url: '/task',
    headers: {
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    payload,
  })

describe('POST /task with prototype keys', () => {
  it.each([
    ['a top-level "__proto__"', '{"name":"a","__proto__":{"x":1}}'],
    ['"__proto__" first', '{"__proto__":{"x":1,"polluted":true},"name":"a"}'],
    [
      '"__proto__" written with escapes',
      '{"name":"a","\\u005f\\u005fproto\\u005f\\u005f":{"x":1}}',
    ],
    ['"constructor.prototype"', '{"name":"a","constructor":{"prototype":{"x":1}}}'],
    ['a nested "__proto__"', '{"name":"a","tag":{"deep":{"__proto__":{"x":1}}}}'],
    ['a "__proto__" inside an array', '[{"__proto__":{"x":1}}]'],
    ['a nested "constructor.prototype"', '{"name":{"constructor":{"prototype":{"x":1}}}}'],
  ])('returns 400 for %s', async (_, body) => {
    await expectError(
      await postTask(body),
      400,
      'The request body must not contain "__proto__" or "constructor.prototype" keys.',
    )
  })

  it('names a plain "constructor" key as a field that is not allowed', async () => {
    await expectError(
      await postTask('{"name":"a","constructor":{"x":1}}'),
      400,
      'Field "constructor" is not allowed; a NewTask has only "name", an optional "tag", an optional "status", an optional "listId", an optional "notes", an optional "due" and an optional "priority".',
    )
  })

  it('stores Idempotency-Keys named like prototype properties as plain keys', async () => {
    const first = await postTask('{"name":"proto"}', '__proto__')
    const other = await postTask('{"name":"ctor"}', 'constructor')
    expect([first.statusCode, other.statusCode]).toEqual([201, 201])
    expect(first.json().id).not.toBe(other.json().id)
    const replay = await postTask('{"name":"proto"}', '__proto__')
    expect(replay.statusCode).toBe(201)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(first.json())
    const named = await postTask('{"name":"fresh"}', 'toString')
    expect(named.statusCode).toBe(201)
    expect(named.headers['idempotent-replayed']).toBeUndefined()
  })
})

describe('GET /tasks with prototype names as query parameters', () => {
  it.each([
    ['__proto__[x]=1', '__proto__[x]'],
    ['__proto__.x=1', '__proto__.x'],
    ['__proto__=x', '__proto__'],
    ['%5F%5Fproto%5F%5F[x]=1', '__proto__[x]'],
    ['constructor[prototype][x]=1', 'constructor[prototype][x]'],
    ['constructor=1', 'constructor'],
    ['toString=1', 'toString'],
    ['hasOwnProperty=1', 'hasOwnProperty'],
    ['limit=1&__proto__[limit]=2', '__proto__[limit]'],
  ])('returns 400 for ?%s, naming the parameter', async (query, name) => {
    await expectError(
      await server.app.inject({ method: 'GET', url: `/tasks?${query}` }),
      400,
      `Unknown query parameter "${name}".`,
    )
  })
})

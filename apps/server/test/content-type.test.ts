import { exchange } from '@tasklane/testing/raw-http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, lengthOf, listAll, rawPostTask } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

const NOT_JSON = 'Content-Type must be application/json.'
const body = '{"name":"typed"}'

/** POST /task with these Content-Type lines, exactly as written, and a valid body. */
const postWith = (contentTypeLines: string[], payload = body) =>
  exchange(server.port, rawPostTask([...contentTypeLines, lengthOf(payload)], payload))

describe('POST /task Content-Type', () => {
  it.each([
    ['application/json', 'the plain media type'],
    ['application/json; charset=utf-8', 'a charset parameter'],
    ['application/json;charset=UTF-8', 'a charset parameter without a space'],
    ['Application/JSON', 'mixed case'],
    ['APPLICATION/JSON; CHARSET=UTF-8', 'upper case'],
    ['   application/json', 'leading spaces (optional whitespace of the header line)'],
    ['\tapplication/json\t', 'a leading and trailing tab (optional whitespace)'],
    ['application/json;', 'a trailing ";" (an empty parameter list)'],
    ['application/json ; charset=utf-8', 'whitespace before the ";"'],
  ])('accepts "%s": %s', async (contentType) => {
    const before = (await listAll(server)).length
    const response = await postWith([`Content-Type:${contentType}`])
    expect(response.status).toBe(201)
    expect(JSON.parse(response.body)).toMatchObject({ name: 'typed' })
    expect((await listAll(server)).length).toBe(before + 1)
  })

  it.each([
    ['application/json\tfoo', 'a tab followed by more text'],
    ['application/json foo', 'a space followed by more text'],
    ['application/jsonx', 'a longer subtype'],
    ['application/json-patch+json', 'JSON Patch'],
    ['application/merge-patch+json', 'JSON Merge Patch'],
    ['application/problem+json', 'another +json type'],
    ['application/json, text/plain', 'a list of types'],
    ['text/plain; application/json', 'JSON hidden in a parameter'],
    ['text/plain', 'plain text'],
    ['application/x-www-form-urlencoded', 'a form'],
    ['application/ json', 'a space inside the media type'],
    ['application', 'no subtype'],
    ['', 'an empty value'],
  ])('returns 415 for "%s": %s, creating nothing', async (contentType) => {
    const before = (await listAll(server)).length
    await expectError(await postWith([`Content-Type: ${contentType}`]), 415, NOT_JSON)
    expect((await listAll(server)).length).toBe(before)
  })

  it.each([
    [['application/json', 'text/plain']],
    [['text/plain', 'application/json']],
    [['application/json', 'application/json']],
  ])('returns 415 when it is sent twice (%j): a proxy may read the other', async (types) => {
    const before = (await listAll(server)).length
    await expectError(
      await postWith(types.map((type) => `Content-Type: ${type}`)),
      415,
      'Content-Type must be given once, as application/json.',
    )
    expect((await listAll(server)).length).toBe(before)
  })

  it.each([
    ['with a body', [lengthOf(body)], body],
    ['with Content-Length: 0', ['Content-Length: 0'], ''],
    ['without Content-Length or a body', [], ''],
  ])('returns 415 when it is missing, %s', async (_, lines, payload) => {
    await expectError(await exchange(server.port, rawPostTask(lines, payload)), 415, NOT_JSON)
  })
})

import { exchange, openConnection } from '@tasklane/testing/raw-http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, lengthOf, listAll, postRaw, rawPostTask } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

const JSON_TYPE = 'Content-Type: application/json'
const TOO_LARGE = 'The request body is larger than 65536 bytes.'

describe('POST /task body', () => {
  it('returns 400 for an empty body', async () => {
    await expectError(
      await postRaw(server, ''),
      400,
      'The request body is empty; send a JSON object.',
    )
  })

  it.each([
    ['malformed JSON', '{"name": "a"'],
    ['a trailing comma', '{"name":"a",}'],
    ['text after the object', '{"name":"a"}garbage'],
    ['a leading byte order mark', '\uFEFF{"name":"a"}'],
  ])('returns 400 for %s', async (_, body) => {
    await expectError(await postRaw(server, body), 400, 'The request body is not valid JSON.')
  })

  it.each([
    ['a JSON array', '[{"name":"a"}]'],
    ['a JSON string', '"a"'],
    ['JSON null', 'null'],
    ['a JSON number', '42'],
  ])('returns 400 for %s as the body', async (_, body) => {
    await expectError(await postRaw(server, body), 400, 'The request body must be a JSON object.')
  })
})

describe('POST /task body size', () => {
  /** A valid body of exactly `size` bytes: the JSON padded with spaces. */
  const bodyOf = (size: number) => {
    const json = '{"name":"big"}'
    return json + ' '.repeat(size - json.length)
  }

  it('accepts a body of exactly 64 KiB', async () => {
    const body = bodyOf(65_536)
    const response = await exchange(server.port, rawPostTask([JSON_TYPE, lengthOf(body)], body))
    expect(response.status).toBe(201)
  })

  it('returns 413 for a body one byte over 64 KiB, with Content-Length', async () => {
    const body = bodyOf(65_537)
    await expectError(
      await exchange(server.port, rawPostTask([JSON_TYPE, lengthOf(body)], body)),
      413,
      TOO_LARGE,
    )
  })

  it('returns 413 for a chunked body over 64 KiB, without Content-Length', async () => {
    const chunk = 'x'.repeat(16_384)
    const chunks = Array.from({ length: 5 }, () => `4000\r\n${chunk}\r\n`)
    const response = await exchange(
      server.port,
      [
        rawPostTask([JSON_TYPE, 'Transfer-Encoding: chunked'], ''),
        `4000\r\n{"name":"${chunk.slice(9)}\r\n`,
        ...chunks,
        '0\r\n\r\n',
      ],
      { gapMs: 5 },
    )
    await expectError(response, 413, TOO_LARGE)
  })

  it('returns 413 at once when Content-Length announces more than 64 KiB', async () => {
    const response = await exchange(
      server.port,
      rawPostTask([JSON_TYPE, 'Content-Length: 1000000000'], '{"name":"a"}'),
    )
    await expectError(response, 413, TOO_LARGE)
    expect(response.ms).toBeLessThan(2_000)
  })

  it('returns 400 and creates nothing when Content-Length is shorter than the body', async () => {
    const before = (await listAll(server)).length
    const response = await exchange(
      server.port,
      rawPostTask([JSON_TYPE, 'Content-Length: 5'], '{"name":"lying"}'),
    )
    expect(response.status).toBe(400)
    expect(JSON.parse(response.body)).toEqual({ code: 400, message: expect.any(String) })
    expect((await listAll(server)).length).toBe(before)
  })
})

// A client that sends Expect: 100-continue waits for "100 Continue" before it uploads the
// body (RFC 9110, 10.1.1): a request refused for what its head says is refused before that.
describe('POST /task with Expect: 100-continue', () => {
  const EXPECT = 'Expect: 100-continue'

  it('returns 413 without 100 Continue when Content-Length is over 64 KiB', async () => {
    const response = await exchange(
      server.port,
      rawPostTask([JSON_TYPE, EXPECT, 'Content-Length: 70000'], ''),
    )
    expect(response.statusLine).toBe('HTTP/1.1 413 Payload Too Large')
    await expectError(response, 413, TOO_LARGE)
  })

  it('returns 415 without 100 Continue when the Content-Type is not JSON', async () => {
    const response = await exchange(
      server.port,
      rawPostTask(['Content-Type: text/plain', EXPECT, 'Content-Length: 12'], ''),
    )
    expect(response.statusLine).toBe('HTTP/1.1 415 Unsupported Media Type')
  })

  it('sends 100 Continue once the body is wanted, then the answer', async () => {
    const body = JSON.stringify({ name: 'sent after 100 Continue' })
    const connection = openConnection(server.port)
    await connection.connected
    connection.write(rawPostTask([JSON_TYPE, EXPECT, lengthOf(body)], ''))
    const [interim] = await connection.responsesUntil(1)
    expect(interim?.statusLine).toBe('HTTP/1.1 100 Continue')
    connection.write(body)
    const [, final] = await connection.responsesUntil(2)
    expect(final?.status).toBe(201)
    expect(JSON.parse(final?.body ?? '')).toMatchObject({ name: 'sent after 100 Continue' })
    connection.socket.destroy()
  })
})

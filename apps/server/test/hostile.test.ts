import { connect } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type AppOptions, buildApp } from '../src/app.js'
import { type Database, openDatabase } from '../src/db/database.js'
import { createTestDatabase, type TestDatabase } from './helpers.js'

/** An app on an ephemeral port with the given options and a fresh database. */
interface Running {
  readonly app: FastifyInstance
  readonly port: number
  readonly url: string
  close(): Promise<void>
}

async function start(options: Omit<AppOptions, 'database'> = {}): Promise<Running> {
  const testDatabase: TestDatabase = await createTestDatabase()
  const database: Database = await openDatabase(testDatabase.config)
  const app = await buildApp({ database, ...options })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return {
    app,
    port: address.port,
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await app.close()
      await database.close()
      await testDatabase.drop()
    },
  }
}

interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
  /** Milliseconds from connecting until the server closed the connection. */
  ms: number
}

/**
 * Writes `parts` to a fresh connection, `gapMs` apart, and returns the first response
 * once the server closes the connection.
 */
function exchange(port: number, parts: (string | Buffer)[], gapMs = 0): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let timer: NodeJS.Timeout | undefined
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => {}) // A reset after the response is the server cutting us off.
    socket.on('close', () => {
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString('utf8')
      if (text === '') {
        reject(new Error('the connection closed without a response'))
        return
      }
      const end = text.indexOf('\r\n\r\n')
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n')
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':')
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
        }),
      )
      let body = text.slice(end + 4)
      if (headers['transfer-encoding'] === 'chunked') body = unchunk(body)
      else if (headers['content-length'] !== undefined) {
        body = Buffer.from(body).subarray(0, Number(headers['content-length'])).toString('utf8')
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, ms: Date.now() - started })
    })
    let i = 0
    const next = () => {
      if (socket.destroyed || i >= parts.length) return
      socket.write(parts[i++] as string | Buffer)
      timer = setTimeout(next, gapMs)
    }
    socket.on('connect', next)
  })
}

function unchunk(text: string): string {
  let out = ''
  let rest = text
  for (;;) {
    const lineEnd = rest.indexOf('\r\n')
    const size = Number.parseInt(rest.slice(0, lineEnd), 16)
    if (!(size > 0)) return out
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size)
    rest = rest.slice(lineEnd + 2 + size + 2)
  }
}

/** A complete POST /task with these header lines (after Host) and body. */
function post(headerLines: string[], body: string): string {
  return [
    'POST /task HTTP/1.1',
    'Host: 127.0.0.1',
    ...headerLines,
    'Connection: close',
    '',
    body,
  ].join('\r\n')
}

const withLength = (body: string) => `Content-Length: ${Buffer.byteLength(body)}`

function expectErrorBody(response: RawResponse, status: number, message: string): void {
  expect({ status: response.status, body: JSON.parse(response.body) as unknown }).toEqual({
    status,
    body: { code: status, message },
  })
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
}

async function countTasks(running: Running): Promise<number> {
  const response = await fetch(`${running.url}/tasks`)
  expect(response.status).toBe(200)
  return ((await response.json()) as unknown[]).length
}

let server: Running

beforeAll(async () => {
  server = await start()
})

afterAll(async () => {
  await server?.close()
})

const NOT_JSON = 'Content-Type must be application/json.'

describe('POST /task Content-Type (Fastify content-type advisories)', () => {
  const body = '{"name":"typed"}'

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
  ])('accepts Content-Type "%s": %s', async (contentType) => {
    const before = await countTasks(server)
    const response = await exchange(server.port, [
      post([`Content-Type:${contentType}`, withLength(body)], body),
    ])
    expect(response.status).toBe(201)
    expect(JSON.parse(response.body)).toMatchObject({ name: 'typed' })
    expect(await countTasks(server)).toBe(before + 1)
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
    ['application/ json', 'a space inside the media type'],
    ['application', 'no subtype'],
    ['', 'an empty value'],
  ])('returns 415 for Content-Type "%s": %s', async (contentType) => {
    const before = await countTasks(server)
    const response = await exchange(server.port, [
      post([`Content-Type: ${contentType}`, withLength(body)], body),
    ])
    expectErrorBody(response, 415, NOT_JSON)
    expect(await countTasks(server)).toBe(before)
  })

  it.each([
    [['application/json', 'text/plain']],
    [['text/plain', 'application/json']],
    [['application/json', 'application/json']],
  ])(
    'returns 415 when Content-Type is sent twice (%j): proxies may read another',
    async (types) => {
      const before = await countTasks(server)
      const response = await exchange(server.port, [
        post([...types.map((type) => `Content-Type: ${type}`), withLength(body)], body),
      ])
      expectErrorBody(response, 415, 'Content-Type must be given once, as application/json.')
      expect(await countTasks(server)).toBe(before)
    },
  )

  it('returns 415 when Content-Type is missing, with a body', async () => {
    const response = await exchange(server.port, [post([withLength(body)], body)])
    expectErrorBody(response, 415, NOT_JSON)
  })

  it('returns 415 when Content-Type is missing, without a body', async () => {
    const response = await exchange(server.port, [post([], '')])
    expectErrorBody(response, 415, NOT_JSON)
  })
})

describe('prototype poisoning', () => {
  afterEach(() => {
    // Nothing the server parsed may have reached the prototype of every object.
    expect(({} as Record<string, unknown>).x).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('x')
  })

  const PROTO_MESSAGE =
    'The request body must not contain "__proto__" or "constructor.prototype" keys.'

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
  ])('POST /task returns 400 for %s', async (_, body) => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/task',
      headers: { 'content-type': 'application/json' },
      payload: body,
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ code: 400, message: PROTO_MESSAGE })
  })

  it('POST /task names a plain "constructor" key as a field that is not allowed', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/task',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"a","constructor":{"x":1}}',
    })
    expect(response.json()).toEqual({
      code: 400,
      message: 'Field "constructor" is not allowed; a task has only "name" and an optional "tag".',
    })
  })

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
  ])('GET /tasks?%s returns 400 naming the parameter', async (query, name) => {
    const response = await server.app.inject({ method: 'GET', url: `/tasks?${query}` })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ code: 400, message: `Unknown query parameter "${name}".` })
  })

  it('stores Idempotency-Keys named like prototype properties as plain keys', async () => {
    const send = (key: string, name: string) =>
      server.app.inject({
        method: 'POST',
        url: '/task',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        payload: { name },
      })
    const first = await send('__proto__', 'proto')
    const other = await send('constructor', 'ctor')
    expect([first.statusCode, other.statusCode]).toEqual([201, 201])
    expect(first.json().id).not.toBe(other.json().id)
    const replay = await send('__proto__', 'proto')
    expect(replay.statusCode).toBe(201)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(first.json())
    const named = await send('toString', 'fresh')
    expect(named.statusCode).toBe(201)
    expect(named.headers['idempotent-replayed']).toBeUndefined()
  })
})

describe('POST /task body size', () => {
  /** A valid body of exactly `size` bytes: the name padded with spaces after the JSON. */
  const bodyOf = (size: number) => {
    const json = '{"name":"big"}'
    return json + ' '.repeat(size - json.length)
  }

  it('accepts a body of exactly 64 KiB', async () => {
    const body = bodyOf(65_536)
    const response = await exchange(server.port, [
      post(['Content-Type: application/json', withLength(body)], body),
    ])
    expect(response.status).toBe(201)
  })

  it('returns 413 for a body one byte over 64 KiB, with Content-Length', async () => {
    const body = bodyOf(65_537)
    const response = await exchange(server.port, [
      post(['Content-Type: application/json', withLength(body)], body),
    ])
    expectErrorBody(response, 413, 'The request body is larger than 65536 bytes.')
  })

  it('returns 413 for a chunked body over 64 KiB without Content-Length', async () => {
    const chunk = 'x'.repeat(16_384)
    const chunks = Array.from({ length: 5 }, () => `4000\r\n${chunk}\r\n`)
    const response = await exchange(
      server.port,
      [
        post(['Content-Type: application/json', 'Transfer-Encoding: chunked'], ''),
        `4000\r\n{"name":"${chunk.slice(9)}\r\n`,
        ...chunks,
        '0\r\n\r\n',
      ],
      5,
    )
    expectErrorBody(response, 413, 'The request body is larger than 65536 bytes.')
  })

  it('returns 413 at once when Content-Length announces more than 64 KiB', async () => {
    const response = await exchange(server.port, [
      post(['Content-Type: application/json', 'Content-Length: 1000000000'], '{"name":"a"}'),
    ])
    expectErrorBody(response, 413, 'The request body is larger than 65536 bytes.')
    expect(response.ms).toBeLessThan(2_000)
  })

  it('returns 400 and creates nothing when Content-Length is shorter than the body', async () => {
    const before = await countTasks(server)
    const response = await exchange(server.port, [
      post(['Content-Type: application/json', 'Content-Length: 5'], '{"name":"lying"}'),
    ])
    expect(response.status).toBe(400)
    expect(JSON.parse(response.body)).toEqual({ code: 400, message: expect.any(String) })
    expect(await countTasks(server)).toBe(before)
  })

  it.each([
    ['two different Content-Length headers', ['Content-Length: 12', 'Content-Length: 13']],
    ['a negative Content-Length', ['Content-Length: -1']],
    ['Content-Length with Transfer-Encoding', ['Content-Length: 12', 'Transfer-Encoding: chunked']],
  ])('returns 400 for %s (request smuggling)', async (_, lines) => {
    const response = await exchange(server.port, [
      post(['Content-Type: application/json', ...lines], '{"name":"a"}'),
    ])
    expectErrorBody(response, 400, 'The request is malformed.')
  })
})

describe('slow clients', () => {
  let slow: Running
  const HEADERS_MS = 500
  const REQUEST_MS = 1_000

  beforeAll(async () => {
    slow = await start({ headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS })
  })

  afterAll(async () => {
    await slow?.close()
  })

  it('keeps 10 s for headers and 30 s for the whole request by default', () => {
    expect(server.app.server.headersTimeout).toBe(10_000)
    expect(server.app.server.requestTimeout).toBe(30_000)
  })

  it('answers a client that sends its headers slowly (slowloris) with 408 and closes, serving others meanwhile', async () => {
    const header = 'GET /tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n'
    let cutOff = false
    const slowloris = exchange(slow.port, [...header], 100).finally(() => {
      cutOff = true
    })
    // Others are served while the slow client still holds its connection.
    const others = await Promise.all(
      Array.from({ length: 5 }, async () => (await fetch(`${slow.url}/tasks`)).status),
    )
    expect({ others, cutOff }).toEqual({ others: [200, 200, 200, 200, 200], cutOff: false })
    const response = await slowloris
    expectErrorBody(response, 408, 'The request took too long to arrive.')
    expect(response.headers.connection).toBe('close')
    expect(response.ms).toBeGreaterThanOrEqual(HEADERS_MS)
    // Cut off long before the 4.7 s the header would take at this pace.
    expect(response.ms).toBeLessThan(HEADERS_MS + 1_500)
  })

  it('answers a client that trickles its body with 408, creates nothing, and serves others meanwhile', async () => {
    const body = '{"name":"trickled slowly"}'
    let cutOff = false
    const trickle = exchange(
      slow.port,
      [post(['Content-Type: application/json', withLength(body)], ''), ...body],
      150,
    ).finally(() => {
      cutOff = true
    })
    const created = await fetch(`${slow.url}/task`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"prompt"}',
    })
    expect({ status: created.status, cutOff }).toEqual({ status: 201, cutOff: false })
    const response = await trickle
    expectErrorBody(response, 408, 'The request took too long to arrive.')
    expect(response.ms).toBeGreaterThanOrEqual(REQUEST_MS)
    expect(response.ms).toBeLessThan(REQUEST_MS + 1_500)
    const tasks = (await (await fetch(`${slow.url}/tasks`)).json()) as { name: string }[]
    expect(tasks.map((task) => task.name)).toEqual(['prompt'])
  })

  it('answers a Content-Length larger than the body sent with 408 once the request time is up', async () => {
    const response = await exchange(slow.port, [
      post(['Content-Type: application/json', 'Content-Length: 100'], '{"name":"short"}'),
    ])
    expectErrorBody(response, 408, 'The request took too long to arrive.')
    expect(response.ms).toBeGreaterThanOrEqual(REQUEST_MS)
    expect(response.ms).toBeLessThan(REQUEST_MS + 1_500)
  })
})

describe('requests without exactly one Host header', () => {
  it.each([
    ['no Host header', 'GET /tasks HTTP/1.1\r\nConnection: close\r\n\r\n'],
    ['two Host headers', 'GET /tasks HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n'],
  ])('returns 400 in the Error shape for %s', async (_, request) => {
    const response = await exchange(server.port, [request])
    expectErrorBody(response, 400, 'The request must carry exactly one Host header.')
  })

  it('accepts an HTTP/1.0 request without Host, as HTTP/1.0 allows', async () => {
    const response = await exchange(server.port, ['GET /tasks?limit=0 HTTP/1.0\r\n\r\n'])
    expect(response.status).toBe(200)
    expect(response.body).toBe('[]')
  })
})

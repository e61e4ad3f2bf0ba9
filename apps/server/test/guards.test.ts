import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppOptions, buildApp } from '../src/app.js'
import { type Database, openDatabase } from '../src/db/database.js'
import { HttpError } from '../src/errors.js'
import { createTaskWriter } from '../src/tasks/writer.js'
import { createTestDatabase, type TestDatabase } from './helpers.js'

interface Opened {
  readonly app: FastifyInstance
  readonly database: Database
  close(): Promise<void>
}

/** An app with these guard options on a fresh database, for inject(). */
async function open(options: Omit<AppOptions, 'database'> = {}): Promise<Opened> {
  const testDatabase: TestDatabase = await createTestDatabase()
  const database = await openDatabase(testDatabase.config)
  const app = await buildApp({ database, ...options })
  await app.ready()
  return {
    app,
    database,
    async close() {
      await app.close()
      await database.close()
      await testDatabase.drop()
    },
  }
}

function expectError(
  response: Awaited<ReturnType<FastifyInstance['inject']>>,
  status: number,
  message: string,
): void {
  expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({
    status,
    body: { code: status, message },
  })
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
}

const newTask = (name: string): InjectOptions => ({
  method: 'POST',
  url: '/task',
  headers: { 'content-type': 'application/json' },
  payload: { name },
})

describe('API token (apiToken)', () => {
  const TOKEN = 'tl_0123456789abcdef'
  const MISSING = 'The Authorization header is missing; send "Authorization: Bearer <token>".'
  const INVALID = 'The bearer token in the Authorization header is not valid.'
  let opened: Opened

  beforeAll(async () => {
    opened = await open({ apiToken: TOKEN })
  })

  afterAll(async () => {
    await opened?.close()
  })

  it.each([
    ['GET', '/tasks'],
    ['GET', '/tasks/1'],
    ['POST', '/task'],
    ['GET', '/no-such-route'],
  ] as const)(
    'returns 401 with WWW-Authenticate for %s %s without a token',
    async (method, url) => {
      const response = await opened.app.inject({ method, url })
      expectError(response, 401, MISSING)
      expect(response.headers['www-authenticate']).toBe('Bearer realm="tasklane"')
    },
  )

  it.each([
    ['a wrong token', 'Bearer tl_0123456789abcdeX'],
    ['a prefix of the token', 'Bearer tl_0123456789abcde'],
    ['the token with a suffix', `Bearer ${TOKEN}0`],
    ['another scheme', `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`],
    ['the token without a scheme', TOKEN],
    ['a scheme without a token', 'Bearer'],
    ['a scheme and a blank token', 'Bearer  '],
    ['two tokens', `Bearer ${TOKEN} ${TOKEN}`],
    ['a token scheme', `Token ${TOKEN}`],
  ])('returns 401 for %s', async (_, authorization) => {
    const response = await opened.app.inject({
      method: 'GET',
      url: '/tasks',
      headers: { authorization },
    })
    expectError(response, 401, INVALID)
    expect(response.headers['www-authenticate']).toBe('Bearer realm="tasklane"')
  })

  it('creates nothing for a POST /task without the token', async () => {
    const response = await opened.app.inject(newTask('sneaky'))
    expect(response.statusCode).toBe(401)
    const list = await opened.app.inject({
      method: 'GET',
      url: '/tasks',
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(list.json()).toEqual([])
  })

  it('answers with the right token, the scheme in any case', async () => {
    const created = await opened.app.inject({
      ...newTask('authorized'),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    })
    expect(created.statusCode).toBe(201)
    const list = await opened.app.inject({
      method: 'GET',
      url: '/tasks',
      headers: { authorization: `bearer ${TOKEN}` },
    })
    expect(list.statusCode).toBe(200)
    expect(list.json()).toEqual([created.json()])
  })

  it.each(['/health/live', '/health/ready', '/openapi.json', '/docs'])(
    'keeps GET %s public',
    async (url) => {
      const response = await opened.app.inject({ method: 'GET', url })
      expect(response.statusCode).toBe(200)
      expect(response.headers['www-authenticate']).toBeUndefined()
    },
  )

  it.each([
    '/health/../tasks',
    '/health/live/../../tasks',
    '/docs/../tasks',
    '/openapi.json/../tasks',
  ])('does not treat %s as a public path to the tasks', async (url) => {
    const response = await opened.app.inject({ method: 'GET', url })
    expect(response.statusCode).not.toBe(200)
    expect(response.body).not.toContain('authorized')
  })
})

describe('rate limit (rateLimitPerMinute)', () => {
  let opened: Opened

  beforeAll(async () => {
    opened = await open({ rateLimitPerMinute: 3 })
  })

  afterAll(async () => {
    await opened?.close()
  })

  it('is off by default', async () => {
    const plain = await open()
    try {
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => plain.app.inject({ method: 'GET', url: '/tasks' })),
      )
      expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200))
      expect(responses[0]?.headers['x-ratelimit-limit']).toBeUndefined()
    } finally {
      await plain.close()
    }
  })

  it('counts down in x-ratelimit-* headers, then answers 429 in the Error shape with Retry-After', async () => {
    const remaining: unknown[] = []
    for (let i = 0; i < 3; i++) {
      const response = await opened.app.inject({ method: 'GET', url: '/tasks' })
      expect(response.statusCode).toBe(200)
      expect(response.headers['x-ratelimit-limit']).toBe('3')
      remaining.push(response.headers['x-ratelimit-remaining'])
    }
    expect(remaining).toEqual(['2', '1', '0'])

    const limited = await opened.app.inject(newTask('over the limit'))
    expectError(limited, 429, 'Rate limit of 3 requests a minute exceeded; retry in 1 minute.')
    expect(limited.headers['x-ratelimit-limit']).toBe('3')
    expect(limited.headers['x-ratelimit-remaining']).toBe('0')
    expect(Number(limited.headers['x-ratelimit-reset'])).toBeGreaterThan(0)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60)
  })

  it('keeps health and docs out of the limit', async () => {
    for (const url of ['/health/live', '/health/ready', '/openapi.json']) {
      expect((await opened.app.inject({ method: 'GET', url })).statusCode).toBe(200)
    }
  })

  it('counts each client address on its own', async () => {
    const response = await opened.app.inject({
      method: 'GET',
      url: '/tasks',
      remoteAddress: '10.0.0.2',
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['x-ratelimit-remaining']).toBe('2')
  })
})

/** Keeps the event loop busy for `ms` in slices of `sliceMs`, letting timers run between. */
async function jamEventLoop(ms: number, sliceMs: number): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    const sliceEnd = Date.now() + sliceMs
    while (Date.now() < sliceEnd) {
      // Busy: nothing else runs on this thread.
    }
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('overload shedding (maxEventLoopDelayMs)', () => {
  let opened: Opened

  beforeAll(async () => {
    opened = await open({ maxEventLoopDelayMs: 40 })
  })

  afterAll(async () => {
    await opened?.close()
  })

  it('answers 503 in the Error shape with Retry-After while the event loop lags, then recovers', async () => {
    expect((await opened.app.inject({ method: 'GET', url: '/tasks' })).statusCode).toBe(200)

    // Two sample intervals (1 s each) of 100 ms stalls: the mean delay is far above 40 ms.
    await jamEventLoop(2_200, 100)
    const shed = await opened.app.inject({ method: 'GET', url: '/tasks' })
    expectError(shed, 503, 'The server is overloaded; retry the request shortly.')
    expect(shed.headers['retry-after']).toBe('1')
    const shedCreate = await opened.app.inject(newTask('under pressure'))
    expect(shedCreate.statusCode).toBe(503)

    // Once the loop is idle again for a sample or two, requests are served.
    let status = 0
    for (let waited = 0; waited < 5_000 && status !== 200; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      status = (await opened.app.inject({ method: 'GET', url: '/tasks' })).statusCode
    }
    expect(status).toBe(200)
    // The create refused under pressure was not stored.
    expect((await opened.app.inject({ method: 'GET', url: '/tasks' })).json()).toEqual([])
  }, 15_000)
})

describe('security headers', () => {
  let opened: Opened

  beforeAll(async () => {
    opened = await open()
  })

  afterAll(async () => {
    await opened?.close()
  })

  const API_HEADERS = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cache-control': 'no-store',
  }

  it.each([
    ['a list', { method: 'GET', url: '/tasks' }, 200],
    ['a create', newTask('secure'), 201],
    ['a 404', { method: 'GET', url: '/tasks/999' }, 404],
    ['a 400', { method: 'GET', url: '/tasks?limt=1' }, 400],
    [
      'a 415',
      { method: 'POST', url: '/task', payload: 'x', headers: { 'content-type': 'text/plain' } },
      415,
    ],
    ['the OpenAPI document', { method: 'GET', url: '/openapi.json' }, 200],
    ['health', { method: 'GET', url: '/health/live' }, 200],
  ] as [string, InjectOptions, number][])('sends them on %s', async (_, request, status) => {
    const response = await opened.app.inject(request)
    expect(response.statusCode).toBe(status)
    expect(response.headers).toMatchObject(API_HEADERS)
  })

  it('lets /docs render as an HTML page, with nosniff', async () => {
    const response = await opened.app.inject({ method: 'GET', url: '/docs' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.body).toMatch(/<html/i)
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['content-security-policy']).not.toBe(
      API_HEADERS['content-security-policy'],
    )
  })
})

describe('write queue (createTaskWriter maxQueue)', () => {
  let opened: Opened

  beforeAll(async () => {
    opened = await open()
  })

  afterAll(async () => {
    await opened?.close()
  })

  it('refuses creates beyond maxQueue waiting with 503 and Retry-After, and serves the queued ones', async () => {
    const writer = createTaskWriter(opened.database, { maxQueue: 2 })
    try {
      const first = writer.create({ name: 'one' })
      const second = writer.create({ name: 'two' })
      const third = writer.create({ name: 'three' })
      await expect(third).rejects.toBeInstanceOf(HttpError)
      await expect(third).rejects.toMatchObject({
        statusCode: 503,
        message: 'Too many creates are waiting; retry the request shortly.',
        headers: { 'Retry-After': '1' },
      })
      const done = await Promise.all([first, second])
      expect(done.map(({ task }) => task.name)).toEqual(['one', 'two'])
      expect(done[1]?.task.id).toBeGreaterThan(done[0]?.task.id ?? Number.POSITIVE_INFINITY)
      // With the queue drained, a create is accepted again.
      expect((await writer.create({ name: 'four' })).task.name).toBe('four')
    } finally {
      await writer.close()
    }
  })

  it('with maxQueue 1, refuses a second create while the first waits, and stores neither refused one', async () => {
    const writer = createTaskWriter(opened.database, { maxQueue: 1 })
    try {
      const first = writer.create({ name: 'alone' })
      await expect(writer.create({ name: 'refused' })).rejects.toMatchObject({ statusCode: 503 })
      await first
      const listed = await opened.app.inject({ method: 'GET', url: '/tasks' })
      const names = (listed.json() as { name: string }[]).map((task) => task.name)
      expect(names).toContain('alone')
      expect(names).not.toContain('refused')
      expect(names).not.toContain('three')
    } finally {
      await writer.close()
    }
  })
})

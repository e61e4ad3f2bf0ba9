import type { Task } from '@tasklane/contract'
import { exchange } from '@tasklane/testing/raw-http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, lengthOf, listAll, postJson, rawPostTask } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

const HEADERS_MS = 500
const REQUEST_MS = 1_000
const TOO_SLOW = 'The request took too long to arrive.'

let slow: TestServer

beforeAll(async () => {
  slow = await startServer({ headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS })
})

afterAll(async () => {
  await slow?.close()
})

describe('slow clients', () => {
  it('have 10 s for their headers and 30 s for the whole request by default', async () => {
    const server = await startServer()
    try {
      expect(server.app.server.headersTimeout).toBe(10_000)
      expect(server.app.server.requestTimeout).toBe(30_000)
    } finally {
      await server.close()
    }
  })

  it('get 408 and a closed connection when they send their headers slowly (slowloris), while others are served', async () => {
    const header = 'GET /tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n'
    let cutOff = false
    const slowloris = exchange(slow.port, [...header], { gapMs: 100 }).finally(() => {
      cutOff = true
    })
    // Others are served while the slow client still holds its connection.
    const others = await Promise.all(
      Array.from({ length: 5 }, async () => (await fetch(`${slow.url}/tasks`)).status),
    )
    expect({ others, cutOff }).toEqual({ others: [200, 200, 200, 200, 200], cutOff: false })
    const response = await slowloris
    await expectError(response, 408, TOO_SLOW)
    expect(response.headers.connection).toBe('close')
    expect(response.ms).toBeGreaterThanOrEqual(HEADERS_MS)
    // Cut off long before the 4.7 s the header would take at this pace.
    expect(response.ms).toBeLessThan(HEADERS_MS + 1_500)
  })

  it('get 408 when they trickle their body, and create nothing, while others are served', async () => {
    const body = '{"name":"trickled slowly"}'
    let cutOff = false
    const trickle = exchange(
      slow.port,
      [rawPostTask(['Content-Type: application/json', lengthOf(body)], ''), ...body],
      { gapMs: 150 },
    ).finally(() => {
      cutOff = true
    })
    const created = await postJson(slow, { name: 'prompt' })
    expect({ status: created.status, cutOff }).toEqual({ status: 201, cutOff: false })
    const response = await trickle
    await expectError(response, 408, TOO_SLOW)
    expect(response.ms).toBeGreaterThanOrEqual(REQUEST_MS)
    expect(response.ms).toBeLessThan(REQUEST_MS + 1_500)
    expect((await listAll(slow)).map((task: Task) => task.name)).toEqual(['prompt'])
  })

  it('get 408 once the request time is up when Content-Length promises more than they send', async () => {
    const response = await exchange(
      slow.port,
      rawPostTask(['Content-Type: application/json', 'Content-Length: 100'], '{"name":"short"}'),
    )
    await expectError(response, 408, TOO_SLOW)
    expect(response.ms).toBeGreaterThanOrEqual(REQUEST_MS)
    expect(response.ms).toBeLessThan(REQUEST_MS + 1_500)
  })
})

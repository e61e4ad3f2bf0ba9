import { request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, get } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A GET that never reads its response, once the response has begun: the server's writes
 * back up once the buffers fill. (A paused socket still takes one buffer's worth in.)
 */
async function neverReading(port: number, path: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.pause()
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
  for (let i = 0; i < 100 && socket.readableLength === 0; i++) await pause(20)
  expect(socket.readableLength).toBeGreaterThan(0)
  return socket
}

/** The status of GET `path` (its body discarded), asked until it is `wanted` or `tries` run out. */
async function statusUntil(server: TestServer, path: string, wanted: number, tries = 100) {
  let status = 0
  for (let i = 0; i < tries && status !== wanted; i++) {
    const controller = new AbortController()
    const response = await get(server, path, { signal: controller.signal })
    status = response.status
    controller.abort()
    if (status !== wanted) await pause(100)
  }
  return status
}

/** GET `path` from the local address `from` (127.0.0.2: another client): its status and headers. */
function getFrom(server: TestServer, path: string, from: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; close(): void }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path, localAddress: from })
      req.on('response', (response) => {
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          close: () => req.destroy(),
        })
      })
      req.on('error', reject)
      req.end()
    },
  )
}

describe('clients that stop reading (DRAIN_TIMEOUT_MS)', () => {
  let testDatabase: TestDatabase
  let server: TestServer
  const stalled: Socket[] = []

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    await testDatabase.migrate()
    // About 8 MB of tasks: more than a loopback connection's buffers take unread.
    await testDatabase.insertMany(30_000, (i) => ({ name: `${i} ${'x'.repeat(240)}` }))
    server = await startServer({
      testDatabase,
      settings: { drainTimeoutMs: 1_000, maxSubscribers: 3, maxStreams: 2 },
    })
  }, 60_000)

  afterAll(async () => {
    for (const socket of stalled) socket.destroy()
    await server?.close()
    await testDatabase?.drop()
  }, 30_000)

  it('lose their change-feed slots, and the feed serves others again', async () => {
    for (let i = 0; i < 3; i++)
      stalled.push(await neverReading(server.port, '/tasks/events?after=0'))
    await expectError(
      await get(server, '/tasks/events'),
      503,
      'The change feed already has 3 subscribers, its limit; retry shortly.',
    )
    expect(await statusUntil(server, '/tasks/events', 200)).toBe(200)
  }, 30_000)

  it('lose their streamed-listing slots, and full listings are served again', async () => {
    for (let i = 0; i < 2; i++) stalled.push(await neverReading(server.port, '/tasks'))
    await expectError(
      await get(server, '/tasks'),
      503,
      "2 listings are already being streamed, this instance's limit; retry shortly or ask for a page (limit=1000).",
    )
    expect(await statusUntil(server, '/tasks', 200)).toBe(200)
  }, 30_000)
})

describe('streamed responses per client address (MAX_STREAMS_PER_CLIENT)', () => {
  let server: TestServer

  beforeAll(async () => {
    server = await startServer({ settings: { maxStreamsPerClient: 2 } })
  })

  afterAll(() => server?.close())

  it('answers 429 with Retry-After past the limit, while another address is served', async () => {
    const open = [
      await getFrom(server, '/tasks/events', '127.0.0.1'),
      await getFrom(server, '/tasks/events', '127.0.0.1'),
    ]
    expect(open.map((each) => each.status)).toEqual([200, 200])
    const refused = await get(server, '/tasks/events')
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(refused.headers.get('x-accel-buffering')).toBeNull()
    await expectError(
      refused,
      429,
      'This client already has 2 streamed responses in progress (change feeds, full listings), its limit; close one or retry shortly.',
    )
    const other = await getFrom(server, '/tasks/events', '127.0.0.2')
    expect(other.status).toBe(200)
    other.close()
    // Small pages are no stream: they are served whatever the client has open.
    expect((await get(server, '/tasks?limit=10')).status).toBe(200)
    for (const each of open) each.close()
    expect(await statusUntil(server, '/tasks/events', 200)).toBe(200)
  })
})

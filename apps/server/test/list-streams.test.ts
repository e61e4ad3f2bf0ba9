import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, get, postJson } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'
import { createTestDatabase, onPostgres, type TestDatabase } from './support/test-database.js'

/** Full lists the server streams at once in this file (MAX_STREAMS). */
const MAX_STREAMS = 8

/**
 * The streams the server takes at once: MAX_STREAMS, and on PostgreSQL at most the pool
 * size (4 for test databases), since each streamed list holds a snapshot connection.
 */
const STREAMS = onPostgres ? 4 : MAX_STREAMS

/**
 * About 10 MB of JSON: more than the kernel buffers on a loopback connection whose
 * reader has paused, so such a download stays in flight on the server.
 */
const TASKS = 40_000

/** A full-list download whose reader stops reading once the response has begun. */
async function pausedDownload(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write('GET /tasks HTTP/1.1\r\nHost: localhost\r\nAccept: application/x-ndjson\r\n\r\n')
  const head = await new Promise<string>((resolve) =>
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))),
  )
  socket.pause()
  expect(head).toMatch(/^HTTP\/1\.1 200 /)
  return socket
}

describe('GET /tasks streamed to many slow readers at once', () => {
  let testDatabase: TestDatabase
  let server: TestServer
  const downloads: Socket[] = []

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    await testDatabase.migrate()
    await testDatabase.insertMany(TASKS, (i) => ({ name: `seeded ${i} ${'x'.repeat(200)}` }))
    server = await startServer({ testDatabase, settings: { maxStreams: MAX_STREAMS } })
  }, 120_000)

  afterAll(async () => {
    for (const socket of downloads) socket.destroy()
    await server?.close()
    await testDatabase?.drop()
  })

  it('still creates while MAX_STREAMS full lists stall, answers the next full list 503, and takes one again once a slot frees', async () => {
    for (let i = 0; i < STREAMS; i++) downloads.push(await pausedDownload(server.port))

    const created = await postJson(server, { name: 'while the lists stall' })
    expect(created.status).toBe(201)
    expect((await get(server, '/tasks?limit=10')).status).toBe(200)

    const refused = await get(server, '/tasks')
    await expectError(
      refused,
      503,
      `${STREAMS} listings are already being streamed, this instance's limit; retry shortly or ask for a page (limit=1000).`,
    )
    expect(refused.headers.get('retry-after')).toBe('5')
    await expectError(
      await get(server, '/tasks?limit=5000'),
      503,
      `${STREAMS} listings are already being streamed, this instance's limit; retry shortly or ask for a page (limit=1000).`,
    )

    // One reader gives up: its slot is free again.
    const gone = downloads.pop() as Socket
    const closed = new Promise((resolve) => gone.once('close', resolve))
    gone.destroy()
    await closed
    let full: Response | undefined
    for (let i = 0; i < 50; i++) {
      full = await get(server, '/tasks', { headers: { accept: 'application/x-ndjson' } })
      if (full.status === 200) break
      await full.arrayBuffer()
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(full?.status).toBe(200)
    const lines = (await (full as Response).text()).trim().split('\n')
    expect(lines).toHaveLength(TASKS + 1)
  }, 120_000)
})

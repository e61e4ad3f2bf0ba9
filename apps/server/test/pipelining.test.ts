import { connect, type Socket } from 'node:net'
import { openConnection } from '@tasklane/testing/raw-http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_WAITING_REQUESTS } from '../src/plugins/pipelining.js'
import {
  killAll,
  openDescriptors,
  residentBytes,
  type ServerProcess,
  startServerProcess,
} from './support/processes.js'
import { startServer, type TestServer } from './support/server.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `count` requests for `path`, back to back, as one write. */
const pipelined = (path: string, count: number) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`.repeat(count)

/** A socket that sends `bytes` and never reads what comes back. */
async function neverReading(port: number, bytes: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.pause()
  socket.write(bytes)
  return socket
}

describe('a server process and clients that pipeline without reading', () => {
  let testDatabase: TestDatabase
  let server: ServerProcess

  beforeAll(async () => {
    testDatabase = await createTestDatabase()
    // One full page of long names, and no task after it, so that the page is never cached:
    // each request reads and writes it anew (about 250 kB).
    await testDatabase.migrate()
    await testDatabase.insertMany(1000, (i) => ({ name: `${i} ${'x'.repeat(200)}` }))
    server = await startServerProcess({ DATABASE_URL: testDatabase.url })
  }, 60_000)

  afterAll(async () => {
    await killAll()
    await testDatabase?.drop()
  })

  it('closes every file of 100 pipelined docs files once the client goes (no descriptor leak)', async () => {
    const bundle = '/docs/static/swagger-ui-bundle.js'
    expect((await (await fetch(`${server.url}${bundle}`)).text()).length).toBeGreaterThan(100_000)
    const before = openDescriptors(server.pid)
    const socket = await neverReading(server.port, pipelined(bundle, 100))
    await pause(500)
    socket.destroy()
    let after = openDescriptors(server.pid)
    for (let i = 0; i < 50 && after > before + 2; i++) {
      await pause(100)
      after = openDescriptors(server.pid)
    }
    expect(after).toBeLessThanOrEqual(before + 2)
  }, 30_000)

  it('keeps its memory within 100 MB while one connection pipelines 2,000 pages of 1,000 tasks unread', async () => {
    const page = '/tasks?limit=1000'
    expect(((await (await fetch(`${server.url}${page}`)).json()) as unknown[]).length).toBe(1000)
    const before = residentBytes(server.pid)
    const socket = await neverReading(server.port, pipelined(page, 2000))
    // The peak over the next few seconds: long enough for the server to answer every
    // request it has read, if it did.
    let peak = before
    for (let i = 0; i < 40; i++) {
      await pause(100)
      peak = Math.max(peak, residentBytes(server.pid))
    }
    socket.destroy()
    expect(peak - before).toBeLessThan(100 * 1024 * 1024)
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200)
  }, 30_000)
})

describe('pipelined requests on one connection', () => {
  let server: TestServer

  beforeAll(async () => {
    server = await startServer()
  })

  afterAll(() => server?.close())

  it('are all answered, in order, to a client that reads', async () => {
    const connection = openConnection(server.port)
    await connection.connected
    const paths = Array.from({ length: 20 }, (_, i) => (i % 2 ? '/health/live' : `/tasks/${i + 1}`))
    connection.write(paths.map((path) => pipelined(path, 1)).join(''))
    const responses = await connection.responsesUntil(20)
    expect(responses.map((response) => response.status)).toEqual(
      paths.map((path) => (path === '/health/live' ? 200 : 404)),
    )
    expect(
      responses.filter((r) => r.status === 404).map((r) => JSON.parse(r.body).message),
    ).toEqual(
      paths
        .filter((path) => path !== '/health/live')
        .map((path) => `Task ${path.slice(7)} does not exist.`),
    )
    connection.socket.destroy()
  })

  it(`close a connection that has more than ${MAX_WAITING_REQUESTS} waiting behind the one being answered`, async () => {
    const connection = openConnection(server.port)
    await connection.connected
    connection.write(pipelined('/health/live', MAX_WAITING_REQUESTS + 10))
    await connection.closed
    expect(connection.responses.length).toBeLessThan(MAX_WAITING_REQUESTS + 10)
  })
})

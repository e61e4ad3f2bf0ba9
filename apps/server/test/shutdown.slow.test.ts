import { existsSync } from 'node:fs'
import { type IncomingMessage, request } from 'node:http'
import { connect } from 'node:net'
import type { Task } from '@tasklane/contract'
import { openConnection, type RawConnection } from '@tasklane/testing/raw-http'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SQLite } from '../src/storage/sqlite/sqlite-driver.js'
import { aTask } from './support/http.js'
import {
  findPnpm,
  isAlive,
  killAll,
  pnpmStart,
  type ServerProcess,
  startServerProcess,
  within,
} from './support/processes.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'

const DRAINING = { code: 503, message: 'The server is shutting down; retry the request.' }
const SEEDED = 40_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A keep-alive connection that has sent a request and had its answer: idle. */
async function idleConnection(port: number): Promise<RawConnection> {
  const idle = openConnection(port)
  await idle.connected
  idle.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
  expect((await idle.responsesUntil(1))[0]?.status).toBe(200)
  return idle
}

/** Tries a new TCP connection: 'refused' or 'accepted'. */
function tryConnect(port: number): Promise<'refused' | 'accepted'> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve('accepted')
    })
    socket.once('error', () => resolve('refused'))
  })
}

function postHead(length: number): string {
  return `POST /task HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`
}

/** What the file says once the server is gone: integrity, tasks, and whether a WAL is left. */
function inspect(filename: string) {
  const walLeft = existsSync(`${filename}-wal`)
  const sqlite = new SQLite(filename)
  try {
    return {
      walLeft,
      integrity: sqlite.pragma('integrity_check', { simple: true }),
      names: (sqlite.prepare('SELECT name FROM tasks ORDER BY id').all() as { name: string }[]).map(
        (row) => row.name,
      ),
    }
  } finally {
    sqlite.close()
  }
}

let testDatabase: TestDatabase
let filename: string

beforeEach(async () => {
  testDatabase = await createTestDatabase({ kind: 'sqlite' })
  filename = testDatabase.url
})

afterEach(async () => {
  await killAll()
  await testDatabase.drop()
})

afterAll(killAll)

describe('SIGTERM with requests in flight (node dist/main.js)', () => {
  it('finishes them, answers 503 on open connections, refuses new ones, closes idle ones and exits 0 within 10 s', async () => {
    // 40,000 tasks with long names and tags: about 12 MB, well over the 4 MB or so that
    // the kernel buffers on a loopback connection whose reader has paused, so the
    // download stays in flight on the server for as long as the client does not read.
    await testDatabase.migrate()
    const seeded = await testDatabase.insertMany(SEEDED, (i) => ({
      name: `seeded ${i} ${'x'.repeat(180)}`,
      tag: 'y'.repeat(64),
    }))
    const server: ServerProcess = await startServerProcess({ DATABASE_URL: filename })

    // 1. A full-list download that the client does not read yet.
    let downloadEnded = false
    const downloadResponse = new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${server.url}/tasks`, { agent: false }, (res) => {
        res.pause()
        res.once('end', () => {
          downloadEnded = true
        })
        resolve(res)
      })
      req.on('error', reject)
      req.end()
    })
    const download = await downloadResponse
    expect(download.statusCode).toBe(200)

    // 2. A POST whose body has only half arrived, on a keep-alive connection.
    const body = JSON.stringify({ name: 'in flight at SIGTERM', tag: 'drain' })
    const keepAlive = openConnection(server.port)
    await keepAlive.connected
    keepAlive.write(postHead(Buffer.byteLength(body)) + body.slice(0, 10))
    // 3. Another half-sent POST, from node's HTTP client.
    const otherBody = JSON.stringify({ name: 'also in flight' })
    let otherResolve!: (res: IncomingMessage) => void
    const otherResponse = new Promise<IncomingMessage>((resolve) => {
      otherResolve = resolve
    })
    const other = request(`${server.url}/task`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(otherBody),
      },
    })
    other.on('response', otherResolve)
    const otherErrors: Error[] = []
    other.on('error', (error) => otherErrors.push(error))
    other.write(otherBody.slice(0, 5))
    // 4. An idle keep-alive connection that has had its answer.
    const idle = await idleConnection(server.port)
    await sleep(200)
    // Nothing of the download or the POSTs has finished: they are in flight.
    expect(server.lines.filter((line) => line.includes('"msg":"request"'))).toHaveLength(1)

    const sentAt = Date.now()
    process.kill(server.pid, 'SIGTERM')
    await server.waitForLine(/"msg":"shutting down"/, 5_000)

    // The idle connection is closed now, not after Fastify's 72 s keep-alive.
    await within(idle.closed, 3_000, 'the idle keep-alive connection closing')
    expect(downloadEnded).toBe(false)
    // New TCP connections are refused.
    let attempt = await tryConnect(server.port)
    for (let i = 0; attempt === 'accepted' && i < 100; i++) {
      await sleep(20)
      attempt = await tryConnect(server.port)
    }
    expect(attempt).toBe('refused')

    // The half-sent POST completes with 201; the next request on its connection gets 503.
    keepAlive.write(body.slice(10))
    const [created] = await within(keepAlive.responsesUntil(1), 5_000, 'the in-flight POST answer')
    expect(created?.status).toBe(201)
    expect(JSON.parse(created?.body ?? '')).toEqual(
      aTask({ name: 'in flight at SIGTERM', tag: 'drain' }),
    )
    keepAlive.write('GET /tasks?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    const [, refused] = await within(
      keepAlive.responsesUntil(2),
      5_000,
      'an answer on the open connection',
    )
    expect(refused?.status).toBe(503)
    expect(refused?.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'retry-after': '1',
      connection: 'close',
    })
    expect(JSON.parse(refused?.body ?? '')).toEqual(DRAINING)
    await within(keepAlive.closed, 3_000, 'the connection closing after the 503')

    other.end(otherBody.slice(5))
    const otherAnswer = await within(otherResponse, 5_000, 'the second in-flight POST answer')
    expect([otherAnswer.statusCode, otherErrors]).toEqual([201, []])
    otherAnswer.resume()

    // The download, read slowly from here, completes with the whole list as valid JSON.
    let text = ''
    download.setEncoding('utf8')
    download.on('data', (chunk: string) => {
      text += chunk
      download.pause()
      setTimeout(() => download.resume(), 2)
    })
    download.resume()
    await within(
      new Promise((resolve) => download.once('end', resolve)),
      8_000,
      'the download completing',
    )
    // One snapshot, taken before the POSTs committed: the seeded tasks, exactly.
    expect(download.headers['tasklane-seq']).toBe(String(SEEDED))
    const tasks = JSON.parse(text) as Task[]
    expect(tasks.length).toBe(SEEDED)
    expect(tasks).toEqual(seeded)

    const exit = await within(server.exited, 10_000 - (Date.now() - sentAt), 'exit within 10 s')
    expect(exit).toEqual({ code: 0, signal: null })
    const after = inspect(filename)
    expect(after).toMatchObject({ walLeft: false, integrity: 'ok' })
    expect(after.names.slice(SEEDED)).toEqual(['in flight at SIGTERM', 'also in flight'])
  }, 30_000)
})

describe('pnpm start at the repository root', () => {
  let pnpm: string

  beforeAll(() => {
    pnpm = findPnpm()
  }, 60_000)

  for (const [how, send] of [
    [
      'SIGTERM to the pnpm process',
      (server: ServerProcess) => process.kill(server.child.pid as number, 'SIGTERM'),
    ],
    [
      'Ctrl-C (SIGINT to the whole process group)',
      (server: ServerProcess) => process.kill(-(server.child.pid as number), 'SIGINT'),
    ],
  ] as const) {
    it(`stops the server gracefully on ${how}`, async () => {
      const server = await pnpmStart(pnpm, { DATABASE_URL: filename })
      expect(server.pid).not.toBe(server.child.pid)
      const idle = await idleConnection(server.port)
      const body = JSON.stringify({ name: `in flight at ${how}` })
      const busy = openConnection(server.port)
      await busy.connected
      busy.write(postHead(Buffer.byteLength(body)) + body.slice(0, 4))
      await sleep(100)

      const sentAt = Date.now()
      send(server)
      await server.waitForLine(/"msg":"shutting down"/, 5_000)
      await within(idle.closed, 3_000, 'the idle connection closing')
      busy.write(body.slice(4))
      const [created] = await within(busy.responsesUntil(1), 5_000, 'the in-flight POST answer')
      expect(created?.status).toBe(201)

      const exit = await within(server.exited, 10_000, 'pnpm exiting')
      expect(exit).toEqual({ code: 0, signal: null })
      while (isAlive(server.pid) && Date.now() - sentAt < 10_000) await sleep(20)
      expect(isAlive(server.pid)).toBe(false)
      expect(Date.now() - sentAt).toBeLessThan(10_000)
      const after = inspect(filename)
      expect(after).toEqual({ walLeft: false, integrity: 'ok', names: [`in flight at ${how}`] })
    }, 60_000)
  }
})

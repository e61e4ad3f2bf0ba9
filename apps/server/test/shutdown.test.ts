import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { type IncomingMessage, request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Task } from '@tasklane/contract'
import SQLite from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../src/db/database.js'
import {
  isAlive,
  killAll,
  REPO_ROOT,
  type ServerProcess,
  startProcess,
  startServerProcess,
  within,
} from './server-process.js'

const DRAINING = { code: 503, message: 'The server is shutting down; retry the request.' }
const SEEDED = 40_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** One HTTP/1.1 response as read off a raw socket. */
interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** A raw keep-alive connection that collects every response (Content-Length bodies) and notes its close. */
function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1')
  let buffer = Buffer.alloc(0)
  const responses: RawResponse[] = []
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  socket.on('error', () => {})
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk])
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n')
      if (end < 0) return
      const [statusLine = '', ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n')
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':')
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
        }),
      )
      const length = Number(headers['content-length'] ?? 0)
      if (buffer.length < end + 4 + length) return
      const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8')
      responses.push({ status: Number(statusLine.split(' ')[1]), headers, body })
      buffer = buffer.subarray(end + 4 + length)
    }
  })
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  return { socket, responses, closed, connected }
}

/** Resolves when `count` responses have arrived on the connection. */
async function responsesOn(connection: { responses: RawResponse[] }, count: number) {
  while (connection.responses.length < count) await sleep(10)
  return connection.responses
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

let dir: string
let filename: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tasklane-shutdown-'))
  filename = join(dir, 'tasks.db')
})

afterEach(async () => {
  await killAll()
  await rm(dir, { recursive: true, force: true })
})

afterAll(killAll)

describe('SIGTERM with requests in flight (node dist/main.js)', () => {
  it('finishes them, answers 503 on open connections, refuses new ones, closes idle ones and exits 0 within 10 s', async () => {
    // 40,000 tasks with long names and tags: about 12 MB, well over the 4 MB or so that
    // the kernel buffers on a loopback connection whose reader has paused, so the
    // download stays in flight on the server for as long as the client does not read.
    const database = await openDatabase({ kind: 'sqlite', filename })
    await database.db.transaction().execute(async (trx) => {
      for (let start = 0; start < SEEDED; start += 500) {
        const rows = Array.from({ length: 500 }, (_, i) => ({
          name: `seeded ${start + i} ${'x'.repeat(180)}`,
          tag: 'y'.repeat(64),
        }))
        await trx.insertInto('tasks').values(rows).execute()
      }
    })
    await database.close()
    const server: ServerProcess = await startServerProcess(filename)

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
    const keepAlive = rawConnection(server.port)
    await keepAlive.connected
    keepAlive.socket.write(postHead(Buffer.byteLength(body)) + body.slice(0, 10))
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
    const idle = rawConnection(server.port)
    await idle.connected
    idle.socket.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    expect((await responsesOn(idle, 1))[0]?.status).toBe(200)
    await sleep(200)
    // Nothing of the download or the POSTs has finished: they are in flight.
    expect(server.lines.filter((line) => line.includes('"msg":"request"'))).toHaveLength(1)

    const sentAt = Date.now()
    process.kill(server.serverPid, 'SIGTERM')
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
    keepAlive.socket.write(body.slice(10))
    const [created] = await within(responsesOn(keepAlive, 1), 5_000, 'the in-flight POST answer')
    expect(created?.status).toBe(201)
    expect(JSON.parse(created?.body ?? '')).toEqual({
      id: expect.any(Number),
      name: 'in flight at SIGTERM',
      tag: 'drain',
    })
    keepAlive.socket.write('GET /tasks?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    const [, refused] = await within(
      responsesOn(keepAlive, 2),
      5_000,
      'an answer on the open connection',
    )
    expect(refused?.status).toBe(503)
    expect(refused?.headers['content-type']).toMatch(/^application\/json/)
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
    const tasks = JSON.parse(text) as Task[]
    expect(tasks.length).toBeGreaterThanOrEqual(SEEDED)
    expect(tasks.slice(0, SEEDED).every((task, i) => task.id === i + 1)).toBe(true)

    const exit = await within(server.exited, 10_000 - (Date.now() - sentAt), 'exit within 10 s')
    expect(exit).toEqual({ code: 0, signal: null })
    const after = inspect(filename)
    expect(after).toMatchObject({ walLeft: false, integrity: 'ok' })
    expect(after.names.slice(SEEDED)).toEqual(['in flight at SIGTERM', 'also in flight'])
  }, 30_000)
})

/** A pnpm 10 to run `pnpm start` with: the one on PATH, or the one npx fetches. */
function findPnpm(): string {
  const onPath = (command: string, args: string[]) =>
    execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  try {
    const pnpm = onPath('sh', ['-c', 'command -v pnpm'])
    if (onPath(pnpm, ['--version']).startsWith('10.')) return pnpm
  } catch {}
  return onPath('npx', ['-y', '-p', 'pnpm@10', '-c', 'command -v pnpm'])
}

describe('pnpm start at the repository root', () => {
  let pnpm: string

  beforeAll(() => {
    pnpm = findPnpm()
  }, 60_000)

  /** `pnpm start` in its own process group, as a terminal runs it. */
  function pnpmStart(): Promise<ServerProcess> {
    return startProcess(pnpm, ['start'], {
      cwd: REPO_ROOT,
      detached: true,
      env: {
        ...process.env,
        // The root script runs `pnpm` again: it must find this one.
        PATH: `${dirname(pnpm)}:${process.env.PATH}`,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: filename,
        LOG_LEVEL: 'info',
      },
    })
  }

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
      const server = await pnpmStart()
      expect(server.serverPid).not.toBe(server.child.pid)
      const idle = rawConnection(server.port)
      await idle.connected
      idle.socket.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
      await responsesOn(idle, 1)
      const body = JSON.stringify({ name: `in flight at ${how}` })
      const busy = rawConnection(server.port)
      await busy.connected
      busy.socket.write(postHead(Buffer.byteLength(body)) + body.slice(0, 4))
      await sleep(100)

      const sentAt = Date.now()
      send(server)
      await server.waitForLine(/"msg":"shutting down"/, 5_000)
      await within(idle.closed, 3_000, 'the idle connection closing')
      busy.socket.write(body.slice(4))
      const [created] = await within(responsesOn(busy, 1), 5_000, 'the in-flight POST answer')
      expect(created?.status).toBe(201)

      const exit = await within(server.exited, 10_000, 'pnpm exiting')
      expect(exit).toEqual({ code: 0, signal: null })
      while (isAlive(server.serverPid) && Date.now() - sentAt < 10_000) await sleep(20)
      expect(isAlive(server.serverPid)).toBe(false)
      expect(Date.now() - sentAt).toBeLessThan(10_000)
      const after = inspect(filename)
      expect(after).toEqual({ walLeft: false, integrity: 'ok', names: [`in flight at ${how}`] })
    }, 60_000)
  }
})

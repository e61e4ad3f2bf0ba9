import { readFileSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultMaxConnections, descriptorLimit } from '../src/settings/descriptor-limit.js'
import { get } from './support/http.js'
import { isAlive, killAll, openDescriptors, startServerProcess } from './support/processes.js'
import { startServer } from './support/server.js'
import { createTestDatabase, onPostgres } from './support/test-database.js'

afterAll(killAll)

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Opens `count` TCP connections that send nothing; resolves once each is open or refused. */
async function idleConnections(port: number, count: number): Promise<Socket[]> {
  const sockets = Array.from({ length: count }, () => connect(port, '127.0.0.1'))
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          socket.once('connect', () => resolve())
          socket.once('error', () => resolve())
          socket.once('close', () => resolve())
        }),
    ),
  )
  return sockets
}

/** GET /health/live until it answers 200 (at most `tries` times): the server serves again. */
async function servesAgain(url: string, tries = 50): Promise<number> {
  let status = 0
  for (let i = 0; i < tries && status !== 200; i++) {
    status = await fetch(`${url}/health/live`).then(
      (response) => response.status,
      () => 0,
    )
    if (status !== 200) await pause(100)
  }
  return status
}

/** The server's open-file limit in the flood below. */
const DESCRIPTORS = 512

describe('a flood of idle connections past the descriptor limit', () => {
  it('neither ends the process nor stops it serving once the flood ends', async () => {
    const testDatabase = await createTestDatabase()
    try {
      // 512 descriptors, 600 connections; shedding on (its sampling is what used to throw).
      // Fewer descriptors left a start on a loaded machine short of them while the writer
      // thread and the main thread were still reading their modules (EMFILE, twice).
      const server = await startServerProcess(
        { DATABASE_URL: testDatabase.url, MAX_EVENT_LOOP_DELAY_MS: '60000' },
        { descriptors: DESCRIPTORS },
      )
      const flood = await idleConnections(server.port, DESCRIPTORS + 88)
      // Two of the shedding plugin's one-second samples, at the limit.
      await pause(2_500)
      expect(isAlive(server.pid)).toBe(true)
      expect(openDescriptors(server.pid)).toBeLessThan(DESCRIPTORS)
      const line = JSON.parse(await server.waitForLine(/"msg":"starting"/)) as {
        maxConnections: number
      }
      // Less the PostgreSQL pool (DATABASE_POOL_SIZE, 10) and its listening connection.
      expect(line.maxConnections).toBe(DESCRIPTORS - 64 - (onPostgres ? 21 : 18))
      await server.waitForLine(/connection refused: MAX_CONNECTIONS connections are open/)
      for (const socket of flood) socket.destroy()

      expect(await servesAgain(server.url)).toBe(200)
      expect(isAlive(server.pid)).toBe(true)
      expect(await server.stop()).toEqual({ code: 0, signal: null })
    } finally {
      await testDatabase.drop()
    }
  }, 60_000)
})

describe('MAX_CONNECTIONS', () => {
  it('closes a connection past the cap as it is accepted, and accepts again once one closes', async () => {
    const server = await startServer({ settings: { maxConnections: 3 } })
    try {
      const held = await idleConnections(server.port, 3)
      // Node has taken the three by the time a fourth arrives only once it has seen them.
      for (let i = 0; i < 50 && server.app.server.listening; i++) {
        const count = await new Promise<number>((resolve, reject) =>
          server.app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
        )
        if (count === 3) break
        await pause(20)
      }
      await expect(get(server, '/health/live')).rejects.toThrow()
      for (const socket of held) socket.destroy()
      expect(await servesAgain(server.url)).toBe(200)
    } finally {
      await server.close()
    }
  })

  it('defaults to the descriptor limit less 64 and the PostgreSQL connections', () => {
    const limits = join(tmpdir(), `tasklane-limits-${process.pid}`)
    writeFileSync(
      limits,
      'Limit  Soft Limit  Hard Limit  Units\nMax open files  1024  4096  files\n',
    )
    expect(descriptorLimit(limits)).toBe(1024)
    expect(descriptorLimit(join(tmpdir(), 'no-such-limits-file'))).toBeUndefined()
    expect(defaultMaxConnections(0, 1024)).toBe(960)
    expect(defaultMaxConnections(11, 1024)).toBe(949)
    expect(defaultMaxConnections(0, 10)).toBe(1)
  })
})

describe('client connections', () => {
  it('have TCP keep-alive on, so that a peer that vanished frees its slot', async () => {
    const server = await startServer()
    const socket = connect(server.port, '127.0.0.1')
    try {
      await new Promise((resolve) => socket.once('connect', resolve))
      const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0')
      let timer: string | undefined
      for (let i = 0; i < 50 && timer === undefined; i++) {
        // The server's end: local port the server's, remote port the client's.
        const row = readFileSync('/proc/net/tcp', 'utf8')
          .split('\n')
          .map((line) => line.trim().split(/\s+/))
          .find(
            (fields) =>
              fields[1]?.endsWith(`:${hex(server.port)}`) &&
              fields[2]?.endsWith(`:${hex(socket.localPort ?? 0)}`),
          )
        timer = row?.[5]
        if (timer === undefined) await new Promise((resolve) => setTimeout(resolve, 20))
      }
      // /proc/net/tcp's `tr` column: 2 is the keep-alive timer.
      expect(timer).toMatch(/^02:/)
    } finally {
      socket.destroy()
      await server.close()
    }
  })
})

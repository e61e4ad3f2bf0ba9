import { freePort } from '@tasklane/testing/launch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, get } from './support/http.js'
import { killAll, type ServerProcess, startServerProcess } from './support/processes.js'
import { hasRedis, startRedis, stopAllRedis, type TestRedis } from './support/redis.js'
import { startServer } from './support/server.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'

const LIMITED = (max: number) =>
  `Rate limit of ${max} requests a minute exceeded; retry in 1 minute.`

/** The status and x-ratelimit-remaining of a GET /tasks?limit=1. */
async function hit(server: { url: string }) {
  const response = await get(server, '/tasks?limit=1')
  await response.arrayBuffer()
  return [response.status, response.headers.get('x-ratelimit-remaining')] as const
}

describe.runIf(hasRedis())('one rate limit across instances (RATE_LIMIT_REDIS_URL)', () => {
  let redis: TestRedis
  let testDatabase: TestDatabase

  beforeAll(async () => {
    redis = await startRedis()
    testDatabase = await createTestDatabase()
    await testDatabase.migrate()
  })

  afterAll(async () => {
    await killAll()
    await stopAllRedis()
    await testDatabase?.drop()
  })

  it('three server processes on one database enforce one limit together', async () => {
    const env = { DATABASE_URL: testDatabase.url, RATE_LIMIT: '6', RATE_LIMIT_REDIS_URL: redis.url }
    const servers = await Promise.all([1, 2, 3].map(() => startServerProcess(env)))
    const seen: (readonly [number, string | null])[] = []
    for (let i = 0; i < 6; i++) seen.push(await hit(servers[i % 3] as ServerProcess))
    expect(seen).toEqual([
      [200, '5'],
      [200, '4'],
      [200, '3'],
      [200, '2'],
      [200, '1'],
      [200, '0'],
    ])
    for (const server of servers) {
      await expectError(await get(server, '/tasks?limit=1'), 429, LIMITED(6))
    }
    await Promise.all(servers.map((server) => server.stop()))
  }, 30_000)

  it('keeps serving while Redis is down, logs the outage once, and counts again once it is back', async () => {
    const own = await startRedis()
    const server = await startServerProcess({
      DATABASE_URL: testDatabase.url,
      RATE_LIMIT: '3',
      RATE_LIMIT_REDIS_URL: own.url,
    })
    expect(await hit(server)).toEqual([200, '2'])

    await own.stop()
    // Fail open: well past the limit, every request is served.
    for (let i = 0; i < 10; i++) expect((await hit(server))[0]).toBe(200)
    const outage = /Redis of the shared rate limit is unreachable/
    await server.waitForLine(outage)
    expect(server.lines.filter((line) => /Redis of the shared rate limit/.test(line))).toHaveLength(
      1,
    )
    const warning = JSON.parse(server.lines.find((line) => outage.test(line)) as string)
    expect(warning.level).toBe(40)

    await own.start()
    // ioredis reconnects by itself within 2 s; the first counted request logs the return.
    let status = 200
    for (let i = 0; i < 200 && status === 200; i++) {
      status = (await hit(server))[0]
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(status).toBe(429)
    await server.waitForLine(/Redis of the shared rate limit is reachable again/)
    await server.stop()
  }, 30_000)

  it('starts and serves when nothing listens at the Redis URL', async () => {
    const nowhere = `redis://127.0.0.1:${await freePort()}`
    const server = await startServerProcess({
      DATABASE_URL: testDatabase.url,
      RATE_LIMIT: '2',
      RATE_LIMIT_REDIS_URL: nowhere,
    })
    for (let i = 0; i < 5; i++) expect((await hit(server))[0]).toBe(200)
    await server.waitForLine(/Redis of the shared rate limit is unreachable/)
    expect(server.lines.filter((line) => /Redis of the shared rate limit/.test(line))).toHaveLength(
      1,
    )
    await server.stop()
  }, 30_000)

  it('keeps the per-address limit: another client address has a count of its own', async () => {
    const server = await startServer({ settings: { rateLimit: 2, rateLimitRedisUrl: redis.url } })
    try {
      const from = (remoteAddress: string) =>
        server.app.inject({ url: '/tasks?limit=1', remoteAddress })
      expect((await from('10.9.8.1')).headers['x-ratelimit-remaining']).toBe('1')
      expect((await from('10.9.8.1')).headers['x-ratelimit-remaining']).toBe('0')
      await expectError(await from('10.9.8.1'), 429, LIMITED(2))
      expect((await from('10.9.8.2')).statusCode).toBe(200)
    } finally {
      await server.close()
    }
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  // Well above what a loaded machine's own lag adds (tens of ms), well below the stalls below.
  server = await startServer({ settings: { maxEventLoopDelayMs: 150 } })
})

afterAll(async () => {
  await server?.close()
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

/** The status of GET /tasks, asked every 250 ms until it is 200 or `ms` have passed. */
async function servedWithin(ms: number): Promise<number> {
  let status = (await server.app.inject({ url: '/tasks' })).statusCode
  for (let waited = 0; waited < ms && status !== 200; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    status = (await server.app.inject({ url: '/tasks' })).statusCode
  }
  return status
}

describe('overload shedding (MAX_EVENT_LOOP_DELAY_MS)', () => {
  it('answers 503 in the Error shape with Retry-After while the event loop lags, then recovers', async () => {
    // Served first (once a sample has been taken: the test process may be busy starting).
    expect(await servedWithin(5_000)).toBe(200)

    // Two sample intervals (1 s each) of 400 ms stalls: the mean delay is far above 150 ms.
    await jamEventLoop(2_200, 400)
    const shed = await server.app.inject({ url: '/tasks' })
    await expectError(shed, 503, 'The server is overloaded; retry the request shortly.')
    expect(shed.headers['retry-after']).toBe('1')
    const shedCreate = await server.app.inject({
      method: 'POST',
      url: '/task',
      headers: { 'content-type': 'application/json' },
      payload: { name: 'under pressure' },
    })
    expect(shedCreate.statusCode).toBe(503)

    // Once the loop is idle again for a sample or two, requests are served.
    expect(await servedWithin(5_000)).toBe(200)
    // The create refused under pressure was not stored.
    expect((await server.app.inject({ url: '/tasks' })).json()).toEqual([])
  }, 15_000)
})

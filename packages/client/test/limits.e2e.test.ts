import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError, createClient, ResponseTooLargeError } from '../src/index.js'

/** How much a test server sends at most: 64 times a limit, so that a client without one stops too. */
const GIVE_UP_AFTER = 64 * 2 ** 20

/** What a test server saw: the requests, and how its one response ended. */
interface Outcome {
  requests: IncomingMessage[]
  /** Bytes written into the response before it ended. */
  sent: number
  /** True when the client closed the connection before the server was done sending. */
  cancelled: boolean
}

const closers: (() => void)[] = []
afterEach(() => {
  for (const close of closers.splice(0)) close()
})

/**
 * A real HTTP server on 127.0.0.1, port 0, whose every response is `head` then `filler`
 * again and again, as fast as the client reads, until the client hangs up (or 64 MiB).
 */
async function endlessServer(status: number, contentType: string, head: string, filler: string) {
  const requests: IncomingMessage[] = []
  let settle: (outcome: Outcome) => void = () => {}
  const outcome = new Promise<Outcome>((resolve) => {
    settle = resolve
  })
  const server = createServer((req, res) => {
    requests.push(req)
    res.writeHead(status, { 'content-type': contentType })
    const chunk = Buffer.from(filler.repeat(Math.ceil(65_536 / filler.length)))
    let sent = 0
    let done = false
    res.on('close', () => settle({ requests, sent, cancelled: !done }))
    res.write(head)
    const pump = () => {
      while (!res.destroyed) {
        if (sent >= GIVE_UP_AFTER) {
          done = true
          res.end()
          return
        }
        sent += chunk.length
        // Waits for the client to read: the server never buffers more than the socket does.
        if (!res.write(chunk)) return void res.once('drain', pump)
      }
    }
    pump()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => {
    server.closeAllConnections()
    server.close()
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, outcome }
}

describe('an error body is read up to 1 MiB', () => {
  it('past it, rejects with the ApiError of the status, its body unread, and hangs up', async () => {
    const server = await endlessServer(500, 'text/html', '<html>', 'x')
    const client = createClient({ baseUrl: server.url, retry: false })
    const error = await client.listTasks().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      status: 500,
      code: 500,
      body: undefined,
      message: `Request failed with status 500: GET ${server.url}/tasks (its body is over the client's limit of 1048576 bytes and was not read)`,
    })
    const { requests, cancelled, sent } = await server.outcome
    expect(cancelled).toBe(true)
    expect(sent).toBeLessThan(GIVE_UP_AFTER)
    expect(requests).toHaveLength(1)
  })
})

describe('a streamed line is read up to 1,048,576 characters', () => {
  it('exportTasks rejects with ResponseTooLargeError at an endless NDJSON line, cancels, and does not retry', async () => {
    const server = await endlessServer(200, 'application/x-ndjson', '{"id":1,"name":"', 'x')
    const client = createClient({ baseUrl: server.url, retry: { initialDelayMs: 1 } })
    const error = await client
      .exportTasks()
      .next()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseTooLargeError)
    expect(error).toMatchObject({
      method: 'GET',
      url: `${server.url}/tasks`,
      message: `A line is longer than the client's limit of 1048576 characters: GET ${server.url}/tasks`,
    })
    const { requests, cancelled, sent } = await server.outcome
    expect(cancelled).toBe(true)
    expect(sent).toBeLessThan(GIVE_UP_AFTER)
    expect(requests).toHaveLength(1)
  })

  it('watch rejects with ResponseTooLargeError at an endless event-stream line, and cancels', async () => {
    const server = await endlessServer(200, 'text/event-stream', 'event: task\ndata: ', 'x')
    const client = createClient({ baseUrl: server.url, retry: { initialDelayMs: 1 } })
    const error = await client
      .watch({ after: 0 })
      .next()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseTooLargeError)
    expect((error as Error).message).toBe(
      `A line is longer than the client's limit of 1048576 characters: GET ${server.url}/tasks/events?after=0`,
    )
    const { requests, cancelled } = await server.outcome
    expect(cancelled).toBe(true)
    expect(requests).toHaveLength(1)
  })

  it('watch rejects at an event whose data lines never end, each line short', async () => {
    const server = await endlessServer(
      200,
      'text/event-stream',
      'event: task\n',
      'data: xxxxxxxx\n',
    )
    const client = createClient({ baseUrl: server.url, retry: { initialDelayMs: 1 } })
    const error = await client
      .watch({ after: 0 })
      .next()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseTooLargeError)
    expect((error as Error).message).toMatch(
      /^An event's data is longer than the client's limit of 1048576 characters: GET /,
    )
    const { cancelled } = await server.outcome
    expect(cancelled).toBe(true)
  })
})

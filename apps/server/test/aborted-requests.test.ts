import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { subscribe } from './support/events.js'
import { holdingCommits } from './support/holding-commits.js'
import { createTask, get, jsonBody, lengthOf, rawRequest } from './support/http.js'
import { parseMetrics, sampleValue } from './support/metrics.js'
import { startServer, type TestServer } from './support/server.js'

const log: Record<string, unknown>[] = []
const commits = holdingCommits()
let server: TestServer

beforeAll(async () => {
  server = await startServer({ log, wrapStorage: commits.wrapStorage })
})

afterAll(async () => {
  commits.release()
  await server?.close()
})

/**
 * Sends a whole request and closes the connection at once, reading no answer; resolves
 * once the server has closed its side as well.
 */
function sendAndLeave(request: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.end(request))
    socket.on('error', () => {})
    socket.on('close', () => resolve())
  })
}

/** Waits until `done` holds, polling every 10 ms for up to 5 s. */
async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await done()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`${what} did not happen within 5 s`)
}

/** The request lines logged for `method` and `url`. */
const linesOf = (method: string, url: string) =>
  log.filter((line) => line.msg === 'request' && line.method === method && line.url === url)

/** tasklane_http_requests_total for these labels (an absent label must be absent). */
async function requests(labels: Record<string, string>, aborted: boolean) {
  const text = await (await get(server, '/metrics')).text()
  const samples = parseMetrics(text).filter(
    (sample) => (sample.labels.aborted === 'true') === aborted,
  )
  return sampleValue(samples, 'tasklane_http_requests_total', labels) ?? 0
}

/** A JSON body as raw request lines: its Content-Type and Content-Length. */
const jsonLines = (body: string, type = 'application/json') => [
  `Content-Type: ${type}`,
  lengthOf(body),
]

describe('a write whose client closes the connection right after sending it', () => {
  it('PATCH: each is committed, logged once with aborted: true and the status it had, and counted as aborted', async () => {
    const task = await createTask(server, { name: 'patched by clients that leave' })
    const url = `/tasks/${task.id}`
    commits.hold()
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const body = JSON.stringify({ name: `name ${i}` })
        return sendAndLeave(
          rawRequest(
            `PATCH ${url} HTTP/1.1`,
            jsonLines(body, 'application/merge-patch+json'),
            body,
          ),
        )
      }),
    )
    // Every client has gone (the server has closed its side too) before any change commits.
    commits.release()
    await until(() => linesOf('PATCH', url).length >= 20, '20 PATCH lines in the log')
    expect((await jsonBody<{ version: number }>(await get(server, url))).version).toBe(21)
    const lines = linesOf('PATCH', url)
    expect(lines).toHaveLength(20)
    for (const line of lines) expect(line).toMatchObject({ status: 200, aborted: true })
    expect(await requests({ method: 'PATCH', route: '/tasks/:id', status: '200' }, true)).toBe(20)
  })

  it('POST and DELETE: logged with aborted: true and their 201 and 204, and counted as aborted', async () => {
    const doomed = await createTask(server, { name: 'deleted by a client that leaves' })
    const body = JSON.stringify({ name: 'created by a client that leaves' })
    commits.hold()
    await sendAndLeave(rawRequest('POST /task HTTP/1.1', jsonLines(body), body))
    await sendAndLeave(rawRequest(`DELETE /tasks/${doomed.id} HTTP/1.1`, [], ''))
    commits.release()
    await until(
      () => linesOf('POST', '/task').some((line) => line.aborted === true),
      'the POST line in the log',
    )
    await until(
      () => linesOf('DELETE', `/tasks/${doomed.id}`).length === 1,
      'the DELETE line in the log',
    )
    expect(linesOf('POST', '/task').filter((line) => line.aborted === true)).toEqual([
      expect.objectContaining({ status: 201, aborted: true }),
    ])
    expect(linesOf('DELETE', `/tasks/${doomed.id}`)).toEqual([
      expect.objectContaining({ status: 204, aborted: true }),
    ])
    expect((await get(server, `/tasks/${doomed.id}`)).status).toBe(404)
    expect(await requests({ method: 'POST', route: '/task', status: '201' }, true)).toBe(1)
    expect(await requests({ method: 'DELETE', route: '/tasks/:id', status: '204' }, true)).toBe(1)
  })
})

describe('a response its client reads to the end', () => {
  it('is logged without aborted and counted without the label', async () => {
    const task = await createTask(server, { name: 'read to the end' })
    const before = await requests({ method: 'GET', route: '/tasks/:id', status: '200' }, false)
    expect((await get(server, `/tasks/${task.id}`)).status).toBe(200)
    await until(() => linesOf('GET', `/tasks/${task.id}`).length === 1, 'the GET line')
    expect(linesOf('GET', `/tasks/${task.id}`)[0]).not.toHaveProperty('aborted')
    expect(await requests({ method: 'GET', route: '/tasks/:id', status: '200' }, false)).toBe(
      before + 1,
    )
  })
})

describe('a change-feed subscription its client closes', () => {
  it('is logged once, with aborted: true and its 200', async () => {
    const feed = await subscribe(server, '/tasks/events?after=0')
    feed.close()
    await until(() => linesOf('GET', '/tasks/events?after=0').length === 1, 'the feed line')
    expect(linesOf('GET', '/tasks/events?after=0')[0]).toMatchObject({
      status: 200,
      aborted: true,
    })
  })
})

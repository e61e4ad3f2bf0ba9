import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { subscribe } from './support/events.js'
import { holdingCommits } from './support/holding-commits.js'
import { expectError, get } from './support/http.js'
import { parseMetrics, type Sample, samplesOf, sampleValue } from './support/metrics.js'
import { startServer, type TestServer } from './support/server.js'

const TOKEN = 'metrics-test-token'
const auth = { authorization: `Bearer ${TOKEN}` }

let server: TestServer
const commits = holdingCommits()

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: TOKEN }, wrapStorage: commits.wrapStorage })
})

afterAll(async () => {
  await server?.close()
})

async function scrape(): Promise<Sample[]> {
  const response = await get(server, '/metrics', { headers: auth })
  expect(response.status).toBe(200)
  return parseMetrics(await response.text())
}

/** A PATCH or DELETE of /tasks/{id} with the token, answered with its status. */
async function change(method: 'PATCH' | 'DELETE', id: number, patch?: object, key?: string) {
  const response = await fetch(`${server.url}/tasks/${id}`, {
    method,
    headers: {
      ...auth,
      ...(patch === undefined ? {} : { 'content-type': 'application/merge-patch+json' }),
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: patch === undefined ? undefined : JSON.stringify(patch),
  })
  await response.arrayBuffer()
  return response.status
}

const create = (name: string, key?: string) =>
  fetch(`${server.url}/task`, {
    method: 'POST',
    headers: {
      ...auth,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify({ name }),
  })

describe('GET /metrics', () => {
  it('answers in the Prometheus text format', async () => {
    const response = await get(server, '/metrics', { headers: auth })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(await response.text()).toContain('# TYPE tasklane_http_requests_total counter')
  })

  it('needs the API token when one is set, like every API route', async () => {
    await expectError(
      await get(server, '/metrics'),
      401,
      'The Authorization header is missing; send "Authorization: Bearer <token>".',
    )
  })

  it('includes the default Node.js process metrics', async () => {
    const names = new Set((await scrape()).map((sample) => sample.name))
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(names).toContain(name)
    }
  })
})

describe('tasklane_http_requests_total and tasklane_http_request_duration_seconds', () => {
  it('count requests by method, route template and status, never by raw URL', async () => {
    for (const id of [1, 2, 3]) await get(server, `/tasks/${id}`, { headers: auth })
    for (const path of ['/no/such/a', '/no/such/b']) await get(server, path, { headers: auth })
    await get(server, '/tasks/1') // no token: 401
    const samples = await scrape()
    const requests = samplesOf(samples, 'tasklane_http_requests_total')
    expect(
      sampleValue(samples, 'tasklane_http_requests_total', { route: '/tasks/:id', status: '404' }),
    ).toBe(3)
    expect(
      sampleValue(samples, 'tasklane_http_requests_total', {
        method: 'GET',
        route: 'unmatched',
        status: '404',
      }),
    ).toBe(2)
    expect(
      sampleValue(samples, 'tasklane_http_requests_total', { route: '/tasks/:id', status: '401' }),
    ).toBe(1)
    const routes = new Set(requests.map((sample) => sample.labels.route))
    expect(
      [...routes].filter((route) => route?.includes('/no/such') || /\d/.test(route ?? '')),
    ).toEqual([])
    expect(
      sampleValue(samples, 'tasklane_http_request_duration_seconds_count', { route: '/tasks/:id' }),
    ).toBe(4)
    expect(
      sampleValue(samples, 'tasklane_http_request_duration_seconds_bucket', {
        route: '/tasks/:id',
        le: '+Inf',
      }),
    ).toBe(4)
  })
})

describe('tasklane_tasks_created_total and the commit histograms', () => {
  it('count created tasks, not replays, and every create of every commit', async () => {
    const before = await scrape()
    const createdBefore = sampleValue(before, 'tasklane_tasks_created_total') ?? 0
    const batchedBefore = sampleValue(before, 'tasklane_commit_batch_size_sum') ?? 0
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) => create(`counted ${i}`, i === 0 ? 'key-0' : undefined)),
    )
    expect(responses.map((response) => response.status)).toEqual(Array(5).fill(201))
    const replay = await create('counted 0', 'key-0')
    expect(replay.headers.get('idempotent-replayed')).toBe('true')

    const after = await scrape()
    expect(sampleValue(after, 'tasklane_tasks_created_total')).toBe(createdBefore + 5)
    // The replay went through a commit too (it was looked up in one), but created nothing.
    expect(sampleValue(after, 'tasklane_commit_batch_size_sum')).toBe(batchedBefore + 6)
    const commitCount = sampleValue(after, 'tasklane_commit_duration_seconds_count') ?? 0
    expect(commitCount).toBeGreaterThan(0)
    expect(sampleValue(after, 'tasklane_commit_batch_size_count')).toBe(commitCount)
    expect(sampleValue(after, 'tasklane_commit_duration_seconds_sum')).toBeGreaterThan(0)
  })
})

describe('tasklane_tasks_updated_total and tasklane_tasks_deleted_total', () => {
  it('count changed and deleted tasks, not replays, patches that change nothing or refused writes', async () => {
    const responses = await Promise.all([create('to change'), create('to delete')])
    const [id, gone] = (await Promise.all(
      responses.map(async (response) => ((await response.json()) as { id: number }).id),
    )) as [number, number]
    const before = await scrape()
    const updatedBefore = sampleValue(before, 'tasklane_tasks_updated_total') ?? 0
    const deletedBefore = sampleValue(before, 'tasklane_tasks_deleted_total') ?? 0
    const createdBefore = sampleValue(before, 'tasklane_tasks_created_total') ?? 0
    expect(await change('PATCH', id, { status: 'done' }, 'patch-key')).toBe(200)
    expect(await change('PATCH', id, { status: 'done' }, 'patch-key')).toBe(200) // replay
    expect(await change('PATCH', id, { status: 'done' })).toBe(200) // changes nothing
    expect(await change('PATCH', id, { name: 'renamed' })).toBe(200)
    expect(await change('DELETE', gone)).toBe(204)
    expect(await change('DELETE', gone)).toBe(404)
    expect(await change('PATCH', gone, { name: 'x' })).toBe(404)

    const after = await scrape()
    expect(sampleValue(after, 'tasklane_tasks_updated_total')).toBe(updatedBefore + 2)
    expect(sampleValue(after, 'tasklane_tasks_deleted_total')).toBe(deletedBefore + 1)
    expect(sampleValue(after, 'tasklane_tasks_created_total')).toBe(createdBefore)
  })
})

describe('tasklane_write_queue_depth', () => {
  it('counts the writes waiting for a commit, and drops to 0 once they are written', async () => {
    commits.hold()
    // As many batches as the storage takes at once are written (all held here), one create
    // each; the creates after them wait in the queue.
    const inFlight = server.storage.batchesInFlight
    const written = []
    for (let i = 1; i <= inFlight; i++) {
      written.push(create(`batch ${i}`))
      await commits.started(i)
    }
    const waiting = [create('waits 1'), create('waits 2'), create('waits 3')]
    let depth: number | undefined
    for (let i = 0; i < 100 && depth !== 3; i++) {
      depth = sampleValue(await scrape(), 'tasklane_write_queue_depth')
    }
    expect(depth).toBe(3)
    commits.release()
    const statuses = (await Promise.all([...written, ...waiting])).map((r) => r.status)
    expect(statuses).toEqual(Array(inFlight + 3).fill(201))
    expect(sampleValue(await scrape(), 'tasklane_write_queue_depth')).toBe(0)
  })
})

describe('tasklane_event_subscribers', () => {
  it('counts the open change-feed streams as they open and close', async () => {
    expect(sampleValue(await scrape(), 'tasklane_event_subscribers')).toBe(0)
    const streams = await Promise.all([1, 2, 3].map(() => subscribe(server, '/tasks/events', auth)))
    expect(streams.map((stream) => stream.response.statusCode)).toEqual([200, 200, 200])
    expect(sampleValue(await scrape(), 'tasklane_event_subscribers')).toBe(3)
    for (const stream of streams) stream.close()
    await Promise.all(streams.map((stream) => stream.ended))
    // The server learns of each dropped stream when its side of the socket closes.
    for (let i = 0; i < 200; i++) {
      if (sampleValue(await scrape(), 'tasklane_event_subscribers') === 0) break
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(sampleValue(await scrape(), 'tasklane_event_subscribers')).toBe(0)
  })
})

describe('the API description', () => {
  it('does not list /metrics', async () => {
    const document = (await (await get(server, '/openapi.json')).json()) as { paths: object }
    expect(Object.keys(document.paths)).not.toContain('/metrics')
  })

  it('answers an unknown method on /metrics with 405 in the Error shape', async () => {
    const response = await fetch(`${server.url}/metrics`, { method: 'DELETE', headers: auth })
    await expectError(response, 405, 'Method DELETE is not allowed on "/metrics"; use GET or HEAD.')
  })
})

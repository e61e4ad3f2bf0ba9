// buildApp with a shorter list of plugins (as the bench's ablation assembles its servers):
// each plugin left out is gone, and the API still answers as it should without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_PLUGINS } from '../src/app-plugins.js'
import { get } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let whole: TestServer
let bare: TestServer

beforeAll(async () => {
  whole = await startServer({})
  const per = ['pipelining', 'requestId', 'metrics', 'requestLog', 'securityHeaders', 'hostHeader']
  const request = ['overload', 'framing', 'streamsPerClient', 'strictParams']
  const left = new Set([...per, ...request])
  bare = await startServer({ plugins: APP_PLUGINS.filter(({ name }) => !left.has(name)) })
})

afterAll(async () => {
  await whole?.close()
  await bare?.close()
})

describe('buildApp with fewer plugins', () => {
  it('still lists, creates and changes tasks, integers in the query and path converted', async () => {
    const created = await fetch(`${bare.url}/task`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ablated' }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    const page = await get(bare, '/tasks?limit=20')
    expect(page.status).toBe(200)
    expect(await page.json()).toHaveLength(1)
    const patched = await fetch(`${bare.url}/tasks/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'done' }),
    })
    expect(patched.status).toBe(200)
  })

  it('leaves out their headers and /metrics; the whole app has them', async () => {
    const [left, kept] = await Promise.all([
      get(bare, '/tasks?limit=1'),
      get(whole, '/tasks?limit=1'),
    ])
    expect(left.headers.get('x-request-id')).toBeNull()
    expect(left.headers.get('x-content-type-options')).toBeNull()
    expect(kept.headers.get('x-request-id')).not.toBeNull()
    expect(kept.headers.get('x-content-type-options')).toBe('nosniff')
    expect((await get(bare, '/metrics')).status).toBe(404)
    expect((await get(whole, '/metrics')).status).toBe(200)
  })
})

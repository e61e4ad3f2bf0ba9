import { get as httpGet, type IncomingMessage } from 'node:http'
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTask, get } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

const COUNT = 5000
/** Long names make the full list large (over 1 MB), so a paused reader holds the stream. */
const nameOf = (i: number) => `${String(i).padStart(6, '0')} ${'n'.repeat(193)}`

let server: TestServer
let inserted: Task[]

beforeAll(async () => {
  server = await startServer()
  inserted = await server.testDatabase.insertMany(COUNT, (i) => ({
    name: nameOf(i),
    tag: `t${i % 7}`,
  }))
})

afterAll(async () => {
  await server?.close()
})

/** Opens GET `path` with a raw http.get and resolves with the response once headers arrive. */
function open(path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    httpGet({ host: '127.0.0.1', port: server.port, path, agent: false }, resolve).on(
      'error',
      reject,
    )
  })
}

/** The first chunk of a response body. */
function firstChunk(response: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    response.once('data', (chunk: Buffer) => {
      response.pause()
      resolve(chunk)
    })
    response.once('error', reject)
  })
}

/** Reads the rest of a response body. */
function rest(response: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    response.on('data', (chunk: Buffer) => chunks.push(chunk))
    response.once('end', () => resolve(Buffer.concat(chunks)))
    response.once('error', reject)
    response.resume()
  })
}

/** Runs `action` and returns its result with the elapsed milliseconds. */
async function timed<T>(action: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now()
  const result = await action()
  return { result, ms: performance.now() - start }
}

describe('GET /tasks streaming the full list', () => {
  it('keeps serving other requests while a slow reader holds a full-list download', async () => {
    const download = await open('/tasks')
    expect(download.statusCode).toBe(200)
    expect(download.headers['content-type']).toBe('application/json; charset=utf-8')
    const head = await firstChunk(download)
    expect(head.toString('utf8', 0, 8)).toBe('[{"id":1')

    // The download is open and paused: other requests must not wait for it.
    const created = await timed(() => createTask(server, { name: 'during download' }))
    expect(created.ms).toBeLessThan(2000)
    expect(created.result.id).toBe(COUNT + 1)

    const page = await timed(async () => {
      const response = await get(server, '/tasks?limit=5')
      return { status: response.status, body: (await response.json()) as Task[] }
    })
    expect(page.ms).toBeLessThan(2000)
    expect(page.result).toEqual({ status: 200, body: inserted.slice(0, 5) })

    const ready = await timed(() => get(server, '/health/ready'))
    expect(ready.ms).toBeLessThan(2000)
    expect(ready.result.status).toBe(200)

    // The body (over 1 MB) cannot fit in socket buffers: the download is still in progress.
    expect(download.complete).toBe(false)

    // Now the slow reader finishes: the whole document parses and is in order.
    const body = Buffer.concat([head, await rest(download)]).toString('utf8')
    const tasks = JSON.parse(body) as Task[]
    // One snapshot, taken before the headers were sent: the task created mid-download is
    // after the seq the download reflects, so it is not in it.
    expect(download.headers['tasklane-seq']).toBe(String(COUNT))
    expect(tasks).toEqual(inserted)
  })

  it('serves several concurrent full-list downloads, each complete and in order', async () => {
    const bodies = await Promise.all(
      [1, 2, 3].map(async () => {
        const response = await get(server, '/tasks?tag=t3')
        expect(response.status).toBe(200)
        return (await response.json()) as Task[]
      }),
    )
    const expected = inserted.filter((task) => task.tag === 't3')
    for (const tasks of bodies) expect(tasks).toEqual(expected)
  })

  it('keeps answering after a client aborts a full-list download mid-stream', async () => {
    const download = await open('/tasks')
    expect(download.statusCode).toBe(200)
    await firstChunk(download)
    const closed = new Promise<void>((resolve) => download.socket.once('close', () => resolve()))
    download.socket.destroy()
    await closed

    const live = await get(server, '/health/ready')
    expect(live.status).toBe(200)

    const page = await get(server, '/tasks?limit=3')
    expect(page.status).toBe(200)
    expect(await page.json()).toEqual(inserted.slice(0, 3))

    const created = await createTask(server, { name: 'after abort' })
    expect(created.name).toBe('after abort')

    const full = await get(server, '/tasks')
    expect(full.status).toBe(200)
    const tasks = (await full.json()) as Task[]
    expect(tasks.slice(0, COUNT)).toEqual(inserted)
    expect(tasks.at(-1)).toEqual(created)
  })

  it('survives many aborted downloads in a row', async () => {
    for (let i = 0; i < 10; i++) {
      const download = await open('/tasks')
      await firstChunk(download)
      download.socket.destroy()
    }
    const page = await get(server, '/tasks?limit=2')
    expect(page.status).toBe(200)
    expect(await page.json()).toEqual(inserted.slice(0, 2))
  })
})

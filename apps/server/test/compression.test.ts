import { Readable } from 'node:stream'
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import compression, { COMPRESSION_THRESHOLD } from '../src/plugins/compression.js'

/** A JSON array of `count` task-like objects, about 150 bytes each. */
const tasks = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `Task number ${i + 1} with a name of some length`,
    tag: 'docs',
    status: 'open',
    version: 1,
    createdAt: '2026-11-25T09:30:00.000Z',
    updatedAt: '2026-11-25T09:30:00.000Z',
  }))

const BIG = JSON.stringify(tasks(200))
const SMALL = JSON.stringify(tasks(2))

let app: FastifyInstance

// Registered as app.ts registers it: before the routes it is to compress.
beforeAll(async () => {
  app = Fastify()
  await app.register(compression)
  app.get('/big', (_request, reply) => reply.type('application/json').send(BIG))
  app.get('/small', (_request, reply) => reply.type('application/json').send(SMALL))
  app.get('/lines', (_request, reply) =>
    reply
      .type('application/x-ndjson')
      .send(Readable.from(tasks(50).map((task) => `${JSON.stringify(task)}\n`))),
  )
  app.get('/events', (_request, reply) =>
    reply
      .type('text/event-stream')
      .send(
        Readable.from(
          Array.from(
            { length: 50 },
            (_, i) => `id: ${i}\nevent: updated\ndata: ${BIG.slice(0, 200)}\n\n`,
          ),
        ),
      ),
  )
  app.post('/echo', (request) => request.body)
  await app.ready()
})

afterAll(() => app.close())

const fetchWith = (url: string, encoding: string) =>
  app.inject({ url, headers: { 'accept-encoding': encoding } })

describe('compression of responses', () => {
  it('gzips a large JSON body for a client that accepts gzip, and says it varies by Accept-Encoding', async () => {
    const response = await fetchWith('/big', 'gzip')
    expect(response.headers['content-encoding']).toBe('gzip')
    expect(response.headers.vary).toMatch(/accept-encoding/i)
    expect(gunzipSync(response.rawPayload).toString()).toBe(BIG)
    expect(response.rawPayload.length).toBeLessThan(BIG.length / 5)
  })

  it('prefers br when the client accepts both', async () => {
    const response = await fetchWith('/big', 'gzip, deflate, br')
    expect(response.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(BIG)
  })

  it('sends the body as it is to a client that accepts no encoding', async () => {
    const response = await app.inject({ url: '/big' })
    expect(response.headers['content-encoding']).toBeUndefined()
    expect(response.body).toBe(BIG)
  })

  it(`leaves a body under ${COMPRESSION_THRESHOLD} bytes as it is`, async () => {
    expect(SMALL.length).toBeLessThan(COMPRESSION_THRESHOLD)
    const response = await fetchWith('/small', 'gzip, br')
    expect(response.headers['content-encoding']).toBeUndefined()
    expect(response.body).toBe(SMALL)
  })

  it('compresses an NDJSON stream', async () => {
    const response = await fetchWith('/lines', 'gzip')
    expect(response.headers['content-encoding']).toBe('gzip')
    const lines = gunzipSync(response.rawPayload).toString().trimEnd().split('\n')
    expect(lines.map((line) => JSON.parse(line))).toEqual(tasks(50))
  })

  // A compressor holds bytes back until it has enough: each event must leave at once.
  it('never compresses a text/event-stream', async () => {
    const response = await fetchWith('/events', 'gzip, br')
    expect(response.headers['content-encoding']).toBeUndefined()
    expect(response.body).toMatch(/^id: 0\nevent: updated\n/)
  })
})

describe('request bodies', () => {
  // Inflating them would let a small upload become a large body: the server takes none.
  it('are left alone: a gzip-encoded body is not inflated', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(SMALL),
    })
    expect(response.statusCode).toBe(400)
  })
})

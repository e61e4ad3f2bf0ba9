import type { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../http/http-error.js'

/** Streamed responses one client address may have in progress (MAX_STREAMS_PER_CLIENT). */
export interface StreamsPerClientOptions {
  readonly maxPerClient: number
}

const isStream = (payload: unknown): payload is Readable =>
  typeof (payload as Readable | null)?.pipe === 'function'

/**
 * At most `maxPerClient` streamed responses per client address at once (`request.ip`,
 * which honours TRUST_PROXY): the change feed, streamed listings, docs files. Each
 * instance-wide limit (MAX_SUBSCRIBERS, MAX_STREAMS) then takes many addresses to fill,
 * not one. Any route is covered, whatever it is: a response counts when its body turns
 * out to be a stream, until its connection is done with it. Past the limit the stream is
 * dropped unsent and the answer is 429 with Retry-After, without the headers the route
 * had set for it.
 */
export default fp(
  async function streamsPerClient(app: FastifyInstance, { maxPerClient }: StreamsPerClientOptions) {
    const open = new Map<string, number>()
    /** The headers each reply had before its route ran: those a refusal keeps. */
    const before = new WeakMap<FastifyReply, string[]>()
    app.addHook('onRequest', (_request, reply, done) => {
      before.set(reply, Object.keys(reply.getHeaders()))
      done()
    })
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!isStream(payload) || reply.statusCode >= 300) return done(null, payload)
      const client = request.ip
      const count = open.get(client) ?? 0
      if (count >= maxPerClient) {
        payload.destroy()
        const kept = new Set(before.get(reply))
        for (const name of Object.keys(reply.getHeaders())) {
          if (!kept.has(name)) reply.removeHeader(name)
        }
        return done(
          new HttpError(
            429,
            `This client already has ${maxPerClient} streamed responses in progress (change feeds, full listings), its limit; close one or retry shortly.`,
            { 'Retry-After': '5' },
          ),
        )
      }
      open.set(client, count + 1)
      reply.raw.once('close', () => {
        const left = (open.get(client) ?? 1) - 1
        if (left === 0) open.delete(client)
        else open.set(client, left)
      })
      done(null, payload)
    })
  },
  { name: 'streams-per-client' },
)

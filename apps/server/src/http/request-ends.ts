import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/**
 * Told once of each request's end: `aborted` false when its response was written whole,
 * true when its client closed the connection first. `reply.statusCode` is then the status
 * the server sent, or would have sent had the client stayed.
 */
export type RequestEndListener = (
  request: FastifyRequest,
  reply: FastifyReply,
  aborted: boolean,
) => void

/** The replies of a connection whose responses are not written yet, kept on its socket. */
const UNFINISHED = Symbol('tasklane.unfinished')
type TrackedSocket = Socket & { [UNFINISHED]?: Set<FastifyReply> }

/**
 * How far a reply has come: `answered` once the server has its response (onSend), `left`
 * when its client closed the connection before that, `reported` once its end is told.
 */
const STAGE = Symbol('tasklane.stage')
type TrackedReply = FastifyReply & { [STAGE]?: 'answered' | 'left' | 'reported' }

/**
 * The end of every request that passed this app's onRequest hooks, for the request log and
 * the metrics. Fastify's onResponse runs only once a response is written whole: a request
 * whose client leaves first (a POST, PATCH or DELETE closed right after sending, which is
 * committed all the same; a stream cut short) never reaches it. Such a request is told as
 * `aborted` when both have happened: the connection closed and the server answered.
 *
 * One listener per connection, not per request: a request costs a set insertion, a
 * deletion and an onSend hook.
 */
export class RequestEnds {
  static readonly #apps = new WeakMap<FastifyInstance, RequestEnds>()
  readonly #listeners: RequestEndListener[] = []

  /** The app's RequestEnds, whose hooks the first plugin that asks for it adds. */
  static of(app: FastifyInstance): RequestEnds {
    let ends = RequestEnds.#apps.get(app)
    if (ends === undefined) {
      ends = new RequestEnds(app)
      RequestEnds.#apps.set(app, ends)
    }
    return ends
  }

  private constructor(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      const socket = request.raw.socket as TrackedSocket | null
      if (socket) {
        let unfinished = socket[UNFINISHED]
        if (unfinished === undefined) {
          const replies = new Set<FastifyReply>()
          socket.once('close', () => this.#left(replies))
          socket[UNFINISHED] = replies
          unfinished = replies
        }
        unfinished.add(reply)
      }
      done()
    })
    app.addHook('onSend', (request, reply: TrackedReply, payload, done) => {
      if (reply[STAGE] === 'left') this.#end(request, reply, true)
      else if (reply[STAGE] === undefined) reply[STAGE] = 'answered'
      done(null, payload)
    })
    app.addHook('onResponse', (request, reply, done) => {
      ;(request.raw.socket as TrackedSocket | null)?.[UNFINISHED]?.delete(reply)
      this.#end(request, reply, false)
      done()
    })
  }

  /** Listens to every request's end, after the listeners added before. */
  add(listener: RequestEndListener): void {
    this.#listeners.push(listener)
  }

  /** A connection closed: its replies not written whole end now, or once answered. */
  #left(replies: Set<FastifyReply>): void {
    for (const reply of replies as Set<TrackedReply>) {
      if (reply[STAGE] === 'answered' || reply.raw.headersSent) {
        this.#end(reply.request, reply, true)
      } else reply[STAGE] = 'left'
    }
    replies.clear()
  }

  #end(request: FastifyRequest, reply: TrackedReply, aborted: boolean): void {
    if (reply[STAGE] === 'reported') return
    reply[STAGE] = 'reported'
    for (const listener of this.#listeners) listener(request, reply, aborted)
  }
}

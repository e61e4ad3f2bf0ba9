import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'

/**
 * Requests one connection may have waiting behind the one being answered. A client that
 * sends more without reading the answers is cut off (RFC 9112, section 9.3.2 lets a
 * client retry the unanswered ones on a new connection).
 */
export const MAX_WAITING_REQUESTS = 32

/** The requests of one connection: the reply being answered, if any, and those behind it. */
interface Line {
  answering: FastifyReply | undefined
  awaitingDrain: boolean
  readonly waiting: (() => void)[]
}

/** Each connection's line, kept on its socket (one property read a request, no map). */
const LINE = Symbol('tasklane.pipelining')
type LinedSocket = Socket & { [LINE]?: Line }

function lineOf(socket: LinedSocket): Line {
  let line = socket[LINE]
  if (line === undefined) {
    const created: Line = { answering: undefined, awaitingDrain: false, waiting: [] }
    // Those still waiting were never started: nothing of theirs is open, nothing to close.
    socket.once('close', () => {
      created.waiting.length = 0
    })
    socket[LINE] = created
    line = created
  }
  return line
}

/** Starts the next waiting request once the socket has taken what the last one wrote. */
function next(socket: Socket, line: Line): void {
  if (line.answering !== undefined || line.waiting.length === 0 || socket.destroyed) return
  if (socket.writableNeedDrain) {
    if (!line.awaitingDrain) {
      line.awaitingDrain = true
      socket.once('drain', () => {
        line.awaitingDrain = false
        next(socket, line)
      })
    }
    return
  }
  line.waiting.shift()?.()
}

/**
 * HTTP/1.1 pipelining, answered no faster than the client reads. Node hands over every
 * request of a packet at once (hundreds, from one 64 KiB read), and each would be
 * answered at once into memory: one connection pipelining `GET /tasks?limit=1000` without
 * reading took the process from 150 MB to 1 GB. Here a connection's requests run one at a
 * time, the next only once the previous response is written and the socket has drained,
 * so a connection holds at most one response beyond its send buffer. Responses go out in
 * order anyway, so a pipelining client that reads loses nothing. Registered first, so a
 * waiting request has done nothing yet; those still waiting when the connection closes
 * are dropped (Node never closes their responses, and a file stream opened for one of
 * them stayed open for good).
 *
 * A request that finds its line free (every request of a client that does not pipeline)
 * costs a property read and two assignments: the line is given back by Fastify's
 * onResponse, which its own listener on the response already calls when the response is
 * written. A response that never finishes is one whose connection is gone, and the line
 * with it.
 */
export default fp(
  async function pipelining(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      const socket = request.raw.socket as LinedSocket
      if (socket.destroyed) return
      const line = lineOf(socket)
      if (line.answering === undefined && line.waiting.length === 0 && !socket.writableNeedDrain) {
        line.answering = reply
        return done()
      }
      if (line.waiting.length < MAX_WAITING_REQUESTS) {
        line.waiting.push(() => {
          line.answering = reply
          done()
        })
      } else {
        request.log.debug('too many pipelined requests waiting; closing the connection')
        socket.destroy()
      }
    })
    app.addHook('onResponse', (request, reply, done) => {
      const socket = request.raw.socket as LinedSocket
      const line = socket[LINE]
      // Only the reply that holds the line gives it back (a response sent before this
      // plugin's hook ran, by the router's own errors, holds nothing).
      if (line !== undefined && line.answering === reply) {
        line.answering = undefined
        next(socket, line)
      }
      done()
    })
  },
  { name: 'pipelining' },
)

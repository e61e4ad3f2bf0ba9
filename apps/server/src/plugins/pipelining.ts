import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'

/**
 * Requests one connection may have waiting behind the one being answered. A client that
 * sends more without reading the answers is cut off (RFC 9112, section 9.3.2 lets a
 * client retry the unanswered ones on a new connection).
 */
export const MAX_WAITING_REQUESTS = 32

/** The requests of one connection: whether one is being answered, and those behind it. */
interface Line {
  busy: boolean
  awaitingDrain: boolean
  readonly waiting: (() => void)[]
}

const lines = new WeakMap<Socket, Line>()

function lineOf(socket: Socket): Line {
  let line = lines.get(socket)
  if (line === undefined) {
    const created: Line = { busy: false, awaitingDrain: false, waiting: [] }
    // Those still waiting were never started: nothing of theirs is open, nothing to close.
    socket.once('close', () => {
      created.waiting.length = 0
    })
    lines.set(socket, created)
    line = created
  }
  return line
}

/** Starts the next waiting request once the socket has taken what the last one wrote. */
function next(socket: Socket, line: Line): void {
  if (line.busy || line.waiting.length === 0 || socket.destroyed) return
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
 */
export default fp(
  async function pipelining(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      const socket = request.raw.socket
      if (socket.destroyed) return
      const line = lineOf(socket)
      const start = () => {
        line.busy = true
        release(reply, () => {
          line.busy = false
          next(socket, line)
        })
        done()
      }
      if (!line.busy && line.waiting.length === 0 && !socket.writableNeedDrain) start()
      else if (line.waiting.length < MAX_WAITING_REQUESTS) line.waiting.push(start)
      else {
        request.log.debug('too many pipelined requests waiting; closing the connection')
        socket.destroy()
      }
    })
  },
  { name: 'pipelining' },
)

/** Calls `then` once, when the response is written or its connection gone. */
function release(reply: FastifyReply, then: () => void): void {
  let released = false
  const once = () => {
    if (released) return
    released = true
    then()
  }
  reply.raw.once('finish', once)
  reply.raw.once('close', once)
}

import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../http/http-error.js'
import { headerLines } from '../http/raw-request.js'

/** The one expectation HTTP defines (RFC 9110, section 10.1.1). */
const CONTINUE = /^100-continue$/i

/**
 * Requests whose meaning a proxy in front could read otherwise than this server, refused
 * before anything else looks at them:
 * - HTTP/1.0 with Transfer-Encoding: faulty framing (RFC 9112, section 6.1); the
 *   connection is closed after the 400, since where the next request starts is unknown.
 * - several Authorization headers: Node keeps the first, a proxy may check the last.
 * - an Expect other than 100-continue: 417, in the Error shape with a request id, where
 *   Node would answer a bare 417 itself.
 *
 * And `Expect: 100-continue` is answered with "100 Continue" only once the body is read:
 * Node sends it as soon as the head arrives, so a client uploaded its whole body before
 * learning that it was too large (413), of the wrong type (415) or unauthorized (401).
 */
export default fp(
  async function framing(app: FastifyInstance) {
    // Node answers an unknown expectation itself unless this event has a listener; handed
    // on as a request, it gets the same hooks, headers and Error shape as any other.
    app.server.on('checkExpectation', (request, response) => {
      app.server.emit('request', request, response)
    })
    // With a listener, Node leaves "100 Continue" to the server (and closes the connection
    // after a response sent without it: the client may send the body or not).
    app.server.on('checkContinue', (request, response) => {
      app.server.emit('request', request, response)
    })
    app.addHook('preParsing', (request, reply, payload, done) => {
      const expect = request.headers.expect
      if (
        expect !== undefined &&
        request.raw.httpVersion === '1.1' &&
        CONTINUE.test(expect.trim())
      ) {
        // A body parser starts reading (which resumes the stream) only once the route and
        // the Content-Type accept the body and its Content-Length fits the limit. After a
        // response nothing is sent: Node resumes an unread body then, to discard it.
        payload.once('resume', () => {
          if (!reply.raw.headersSent) reply.raw.writeContinue()
        })
      }
      done(null, payload)
    })
    app.addHook('onRequest', (request, _reply, done) => {
      const raw = request.raw
      if (raw.httpVersion === '1.0' && headerLines(raw.rawHeaders, 'transfer-encoding') > 0) {
        return done(
          new HttpError(400, 'An HTTP/1.0 request must not carry Transfer-Encoding.', {
            Connection: 'close',
          }),
        )
      }
      if (headerLines(raw.rawHeaders, 'authorization') > 1) {
        return done(new HttpError(400, 'The request must carry at most one Authorization header.'))
      }
      const expect = request.headers.expect
      if (expect !== undefined && !CONTINUE.test(expect.trim())) {
        return done(
          new HttpError(417, `The expectation "${expect}" is not supported; only 100-continue is.`),
        )
      }
      done()
    })
  },
  { name: 'framing' },
)

import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../http/http-error.js'
import { headerLines } from '../http/raw-request.js'

/**
 * HTTP/1.1 needs exactly one Host header (RFC 9112, section 3.2). Node keeps the first of
 * several and accepts none (Fastify is told not to answer that itself, so that the 400
 * comes in the Error shape).
 */
export default fp(
  async function hostHeader(app: FastifyInstance) {
    app.addHook('onRequest', (request, _reply, done) => {
      const hosts = headerLines(request.raw.rawHeaders, 'host')
      done(
        hosts > 1 || (hosts === 0 && request.raw.httpVersion !== '1.0')
          ? new HttpError(400, 'The request must carry exactly one Host header.')
          : undefined,
      )
    })
  },
  { name: 'host-header' },
)

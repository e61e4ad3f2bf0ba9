import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { parseJsonBody } from '../http/json-body-parser.js'

/** Only JSON bodies: Fastify's text/plain parser goes, so any other type gets 415. */
export default fp(
  async function jsonBody(app: FastifyInstance) {
    app.removeAllContentTypeParsers()
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseJsonBody)
  },
  { name: 'json-body' },
)

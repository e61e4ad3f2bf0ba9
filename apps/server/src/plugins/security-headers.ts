import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { isDocsPath } from '../http/public-paths.js'
import { pathOf } from '../http/raw-request.js'

/** A JSON API: nothing is sniffed, framed, cached or run as a page. */
export const API_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
}

/**
 * The API reference page (Swagger UI): its own scripts and styles only, no inline script;
 * inline styles, which Swagger UI sets on its elements, and data: images. Never framed.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const DOCS_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': DOCS_CSP,
}

/** Security headers on every response, errors included, set before anything else runs. */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isDocsPath(pathOf(request.url)) ? DOCS_HEADERS : API_HEADERS)
      done()
    })
  },
  { name: 'security-headers' },
)

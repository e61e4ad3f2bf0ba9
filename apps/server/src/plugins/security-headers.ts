import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { isDocsPath, isWebPagePath } from '../http/public-paths.js'
import { pathOf } from '../http/raw-request.js'

/** Every response: nothing is sniffed or framed, no referrer is sent. */
const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
}

/** A JSON API: nothing is sniffed, framed, cached or run as a page. */
export const API_HEADERS = {
  ...COMMON_HEADERS,
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
}

/**
 * A page's policy: scripts, styles, images and requests of its own origin only, no inline
 * script handler, no plugin, never framed; `changes` loosens or tightens single directives.
 */
function pagePolicy(changes: Readonly<Record<string, string>>): string {
  const directives: Record<string, string> = {
    'default-src': "'self'",
    'base-uri': "'self'",
    'script-src': "'self'",
    'script-src-attr': "'none'",
    'style-src': "'self'",
    'img-src': "'self' data:",
    'connect-src': "'self'",
    'object-src': "'none'",
    'form-action': "'self'",
    'frame-ancestors': "'none'",
    ...changes,
  }
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ')
}

/**
 * The API reference page (Swagger UI): its own scripts and styles only, no inline script;
 * inline styles, which Swagger UI sets on its elements, and data: images. Never framed.
 */
export const DOCS_CSP = pagePolicy({ 'style-src': "'self' 'unsafe-inline'" })

const DOCS_HEADERS = { ...COMMON_HEADERS, 'content-security-policy': DOCS_CSP }

/**
 * The web page (apps/web): its own hashed scripts, styles and images only, no inline
 * script or style at all, no <base>; it calls only its own origin. Never framed.
 */
export const WEB_CSP = pagePolicy({ 'base-uri': "'none'" })

/** The API's headers with the page's CSP; its routes set their own Cache-Control. */
const WEB_HEADERS = { ...API_HEADERS, 'content-security-policy': WEB_CSP }

/** Security headers on every response, errors included, set before anything else runs. */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      const path = pathOf(request.url)
      reply.headers(
        isDocsPath(path) ? DOCS_HEADERS : isWebPagePath(path) ? WEB_HEADERS : API_HEADERS,
      )
      done()
    })
  },
  { name: 'security-headers' },
)

import type { FastifyRequest } from 'fastify'
import { pathOf } from './raw-request.js'

/** Where the API reference page lives. */
export const DOCS_PATH = '/docs'

/** `/docs` and what lies under it (`/docs/static/…`), not `/docsx` or `/docs-foo`. */
export function isDocsPath(path: string): boolean {
  return path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`)
}

/** Where the web page's hashed files are served (`/assets/index-B7j13NkJ.css`). */
export const WEB_ASSETS_PATH = '/assets/'

/** The web page (`/`) and its files (`/assets/…`). */
export function isWebPagePath(path: string): boolean {
  return path === '/' || path.startsWith(WEB_ASSETS_PATH)
}

/**
 * Routes anyone may call, whatever the API token: probes, the API description and its
 * page, and the web page with its files (the page asks for the token the API needs).
 */
export function isPublic(request: FastifyRequest): boolean {
  const path = pathOf(request.url)
  return (
    request.method === 'OPTIONS' ||
    path === '/health' ||
    path.startsWith('/health/') ||
    path === '/openapi.json' ||
    isDocsPath(path) ||
    isWebPagePath(path)
  )
}

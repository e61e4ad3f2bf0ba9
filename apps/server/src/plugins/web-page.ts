import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../http/http-error.js'
import { WEB_ASSETS_PATH } from '../http/public-paths.js'
import { readWebPage, type WebFile } from '../web/files.js'

/** Where the built page is (index.html and assets/). */
export interface WebPageOptions {
  readonly root: string
}

/** index.html is asked for again each time (it names the current hashed files)… */
const PAGE_CACHE = 'no-cache'
/** …while a hashed file never changes under its name. */
const ASSET_CACHE = 'public, max-age=31536000, immutable'

function send(request: FastifyRequest, reply: FastifyReply, file: WebFile, cache: string) {
  reply.header('cache-control', cache).header('etag', file.etag)
  const known = request.headers['if-none-match']?.split(',').map((tag) => tag.trim())
  if (known?.includes(file.etag)) return reply.code(304).send()
  return reply.type(file.contentType).send(file.body)
}

/**
 * The web page (apps/web): `GET /` and one route per hashed file under /assets/, so that
 * any other path stays the API's JSON 404. Without a built page, `/` answers 503 saying
 * how to build it, and the API works as ever. Its CSP is security-headers.ts's.
 */
export default fp(
  async function webPage(app: FastifyInstance, { root }: WebPageOptions) {
    const page = await readWebPage(root)
    // Where it was looked for goes to the operator's log; a response never shows a path.
    if (page === undefined) app.log.warn({ root }, 'the web page is not built; / answers 503')
    const hide = { schema: { hide: true } }
    app.get('/', hide, async (request, reply) => {
      if (page === undefined) {
        throw new HttpError(
          503,
          'The web page is not built: run "pnpm build" in the repository. The API works as ever.',
        )
      }
      return send(request, reply, page.index, PAGE_CACHE)
    })
    for (const [name, file] of page?.assets ?? []) {
      app.get(`${WEB_ASSETS_PATH}${name}`, hide, async (request, reply) =>
        send(request, reply, file, ASSET_CACHE),
      )
    }
  },
  { name: 'web-page' },
)

import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../http/http-error.js'
import { isPublic } from '../http/public-paths.js'

/** The bearer token every route but health and docs requires; undefined: no authentication. */
export interface AuthOptions {
  readonly token: string | undefined
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Optional bearer token, compared in constant time (digests of equal length). */
export default fp(
  async function auth(app: FastifyInstance, { token }: AuthOptions) {
    if (token === undefined) return
    const expected = digest(token)
    app.addHook('onRequest', (request, _reply, done) => {
      if (isPublic(request)) return done()
      const header = request.headers.authorization ?? ''
      const match = /^Bearer +(\S+) *$/i.exec(header)
      if (match && timingSafeEqual(digest(match[1] as string), expected)) return done()
      done(
        new HttpError(
          401,
          header === ''
            ? 'The Authorization header is missing; send "Authorization: Bearer <token>".'
            : 'The bearer token in the Authorization header is not valid.',
          { 'WWW-Authenticate': 'Bearer realm="tasklane"' },
        ),
      )
    })
  },
  { name: 'auth' },
)

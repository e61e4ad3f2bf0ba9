import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { type Authenticator, type Credential, OPEN_CREDENTIAL } from '../access/authenticator.js'
import { isPublic } from '../http/public-paths.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request is, as its credential says (open mode: the admin `local`). */
    credential: Credential
  }
}

/** The credentials the server accepts, or none (open mode). */
export interface AuthOptions {
  readonly authenticator: Authenticator
}

/**
 * Every route but the public ones (health, docs, the web page, CORS preflights) needs a
 * credential when the server asks for them: `request.credential` says who the request is,
 * and a request without a valid one gets 401 before anything else runs for it. In open
 * mode, every request is the admin `local`, at no cost.
 */
export default fp(
  async function auth(app: FastifyInstance, { authenticator }: AuthOptions) {
    if (!authenticator.required) {
      app.decorateRequest('credential', { getter: () => OPEN_CREDENTIAL })
      return
    }
    app.decorateRequest('credential', null as unknown as Credential)
    app.addHook('onRequest', async (request) => {
      if (isPublic(request)) return
      request.credential = await authenticator.authenticate(request.headers.authorization)
    })
  },
  { name: 'auth' },
)

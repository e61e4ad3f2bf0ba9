import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { type AllowedHosts, hostAllowed } from '../http/allowed-hosts.js'
import { HttpError } from '../http/http-error.js'
import { headerLines } from '../http/raw-request.js'

/** The hosts requests may name (ALLOWED_HOSTS, or the loopback names); undefined: any. */
export interface HostHeaderOptions {
  readonly allowed?: AllowedHosts | undefined
}

/** Host values whose verdict is kept. */
const MAX_VERDICTS = 64

/**
 * HTTP/1.1 needs exactly one Host header (RFC 9112, section 3.2). Node keeps the first of
 * several and accepts none (Fastify is told not to answer that itself, so that the 400
 * comes in the Error shape). A Host the server does not answer to gets 421: a page on
 * another site whose name was made to resolve to this server (DNS rebinding) sends its
 * own name, so it can read nothing. Behind a trusted proxy, X-Forwarded-Host is the one
 * checked (`request.host`).
 */
export default fp(
  async function hostHeader(app: FastifyInstance, { allowed }: HostHeaderOptions) {
    // Clients name the server by one or two Hosts: each is judged once. A client that
    // sends ever new ones only empties the cache, which stays small.
    const verdicts = new Map<string, boolean>()
    const answersTo = (names: AllowedHosts, host: string) => {
      let verdict = verdicts.get(host)
      if (verdict === undefined) {
        verdict = hostAllowed(names, host)
        if (verdicts.size >= MAX_VERDICTS) verdicts.clear()
        verdicts.set(host, verdict)
      }
      return verdict
    }
    app.addHook('onRequest', (request, _reply, done) => {
      const hosts = headerLines(request.raw.rawHeaders, 'host')
      if (hosts > 1 || (hosts === 0 && request.raw.httpVersion !== '1.0')) {
        return done(new HttpError(400, 'The request must carry exactly one Host header.'))
      }
      const host = request.host
      if (allowed === undefined || !host || answersTo(allowed, host)) return done()
      const shown = host.length > 100 ? `${host.slice(0, 100)}…` : host
      done(
        new HttpError(
          421,
          `This server does not answer to the Host "${shown}"; it answers to ${allowed.names.join(', ')} (ALLOWED_HOSTS).`,
        ),
      )
    })
  },
  { name: 'host-header' },
)

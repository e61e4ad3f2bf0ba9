import type { FastifyError, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { acceptPatch, describe, sendError } from '../http/described-error.js'
import { LogLimiter, rootCause } from '../http/log-limiter.js'
import { pathOf } from '../http/raw-request.js'
import { hasStaticRoute, METHODS } from '../http/static-route.js'

export { clientErrorResponse, describe, sendError } from '../http/described-error.js'

/**
 * True when a route matched the path only by letting a parameter swallow it whole (`*`,
 * the CORS preflight's `OPTIONS *`) or by matching nothing (`/tasks/` for `/tasks/:id`).
 */
function matchedByAccident(params: Record<string, string> | undefined, path: string): boolean {
  if (params === undefined) return false
  if (Object.values(params).includes('')) return true
  const rest = params['*']
  if (rest === undefined) return false
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {}
  return [path, decoded].some((whole) => rest === whole || rest === whole.slice(1))
}

/** `GET or HEAD`, `GET, HEAD, PATCH or DELETE`: a list to pick one from. */
function alternatives(words: readonly string[]): string {
  return words.length < 3
    ? words.join(' or ')
    : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`
}

/** Methods a path answers, derived from the registered routes (for 405 and `Allow`). */
function allowedMethods(app: FastifyInstance, path: string): string[] {
  const resource = hasStaticRoute(app, path)
  return METHODS.filter((method) => {
    const route = app.findRoute({ method, url: path })
    if (route === null) return false
    const params = route.params as Record<string, string> | undefined
    // `/tasks/events` is the feed: PATCH /tasks/{id} matching it does not make it patchable.
    if (resource && Object.keys(params ?? {}).length > 0) return false
    return !matchedByAccident(params, path)
  })
}

/**
 * Every failure, from routes, plugins, parsing and unknown URLs, becomes `{ code, message }`:
 * 404 for an unknown path, 405 with `Allow` for a known path and another method.
 */
export default fp(
  async function errors(app: FastifyInstance) {
    const limiter = new LogLimiter()
    /** Each route's one-line summary, by `METHOD /path`, to point a wrong method at it. */
    const summaries = new Map<string, string>()
    app.addHook('onRoute', (route) => {
      const summary = (route.schema as { summary?: unknown } | undefined)?.summary
      if (typeof summary !== 'string') return
      for (const method of [route.method].flat()) summaries.set(`${method} ${route.url}`, summary)
    })

    /**
     * ` Create a task: POST "/task".` when a route of the path's singular or plural answers
     * the method: a route of its own at that path, not one whose parameter swallows it.
     */
    const sibling = (method: string, path: string): string => {
      for (const other of [path.replace(/s$/, ''), `${path}s`]) {
        const summary = summaries.get(`${method} ${other}`)
        if (other === path || summary === undefined) continue
        // Its first clause: `List tasks in ascending id order`, `Create a task`.
        return ` ${summary.split(/[;(.]/)[0]?.trim()}: ${method} "${other}".`
      }
      return ''
    }
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const described = describe(error, request)
      if (described.status === 415) {
        described.headers = { ...described.headers, ...acceptPatch(request) }
      }
      if (described.status === 503) {
        // Expected while a fault lasts, and met by every request then: one line per cause
        // every few seconds, without a stack.
        const cause = `${error.name}: ${rootCause(error)}`
        const suppressed = limiter.take(cause)
        if (suppressed !== undefined) request.log.warn({ cause, suppressed }, 'service unavailable')
      } else if (described.status >= 500) request.log.error({ err: error }, 'request failed')
      return sendError(reply, described)
    })

    app.setNotFoundHandler((request, reply) => {
      const path = pathOf(request.url)
      const allow = allowedMethods(app, path)
      // A route took the path and found nothing there (a missing file under /docs/static/).
      if (allow.includes(request.method)) {
        return sendError(reply, { status: 404, message: `Nothing is found at "${path}".` })
      }
      if (allow.length > 0) {
        return sendError(reply, {
          status: 405,
          message: `Method ${request.method} is not allowed on "${path}"; use ${alternatives(allow)}.${sibling(request.method, path)}`,
          headers: { Allow: allow.join(', ') },
        })
      }
      return sendError(reply, {
        status: 404,
        message: `No route matches ${request.method} "${path}".`,
      })
    })
  },
  { name: 'errors' },
)

import {
  PATCH_MEDIA_TYPES,
  type RouteDefinition,
  responsesOf,
  type ServerFeatures,
} from '@tasklane/contract'
import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify'
import { HttpError } from './http-error.js'
import { headerLines, pathOf } from './raw-request.js'
import { hasStaticRoute } from './static-route.js'

/**
 * Fastify route options from a contract route: the schema travels unchanged, its responses
 * completed with the errors this server may answer (so /openapi.json lists them). The
 * reply keeps the type of the route's own responses: the errors are sent by the error
 * handler, never by a handler.
 */
export function fromContract<const R extends RouteDefinition>(route: R, features: ServerFeatures) {
  const { method, path, errors: _errors, responseHeaders: _headers, ...schema } = route
  const response = responsesOf(route, features) as R['response']
  return { method, url: path.replace(/\{(\w+)\}/g, ':$1'), schema: { ...schema, response } }
}

/** A JSON Merge Patch's media type, which a PATCH route parses as JSON. */
export const MERGE_PATCH = PATCH_MEDIA_TYPES[0]

/** The media types a PATCH body may have, as a message names them. */
export const PATCH_TYPES = PATCH_MEDIA_TYPES.join(' or ')

/**
 * A body's Content-Type must be given exactly once. Checked before parsing: a body-less
 * request without Content-Type skips the parser but is still the wrong type, and Node keeps
 * only the first of several Content-Type lines where a proxy may read the last.
 */
export function oneContentType(expected: string): onRequestHookHandler {
  return (request, _reply, done) => {
    const lines = headerLines(request.raw.rawHeaders, 'content-type')
    done(
      lines === 1
        ? undefined
        : new HttpError(
            415,
            lines === 0
              ? `Content-Type must be ${expected}.`
              : `Content-Type must be given once, as ${expected}.`,
          ),
    )
  }
}

/**
 * An onRequest hook for the routes of one resource (`/tasks/{id}`): `/tasks/` matches them
 * with an empty id, and PATCH or DELETE `/tasks/events` with the id "events": neither names
 * a resource, so no route of its own answers (a 404, or a 405 naming the methods of the
 * static route). A number never names another route.
 */
export function namesOneResource(app: FastifyInstance) {
  return async (request: { params: unknown; url: string }, reply: FastifyReply) => {
    const { id } = request.params as { id: string }
    if (id === '' || (!/^\d+$/.test(id) && hasStaticRoute(app, pathOf(request.url)))) {
      reply.callNotFound()
      return reply
    }
  }
}

import type { FastifyInstance } from 'fastify'

/** Every method a route may be registered for. */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

/**
 * Whether some method has a route at exactly `path`, with no parameter: then the path names
 * that resource (`/tasks/events`, the feed), and a route that matches it only through a
 * parameter (`/tasks/{id}`) is not its own.
 */
export function hasStaticRoute(app: FastifyInstance, path: string): boolean {
  return METHODS.some((method) => {
    const route = app.findRoute({ method, url: path })
    return route !== null && Object.keys(route.params ?? {}).length === 0
  })
}

// What the contract says of the API that Fastify's OpenAPI generator (@fastify/swagger)
// does not carry from a route's schema: bodies in other media types, and links.
import type { TSchema } from '@sinclair/typebox'
import { type RouteDefinition, routes } from '@tasklane/contract'
import type { FastifySchema } from 'fastify'

/** The contract's routes by operationId. */
const contractRoutes = new Map(
  (Object.values(routes) as RouteDefinition[]).map((route) => [route.operationId, route]),
)

/** What of an OpenAPI document links go into: the responses of its operations. */
interface Paths {
  paths?: Record<string, Record<string, { responses?: Record<string, { links?: unknown }> }>>
}

/**
 * The document with the contract's links in their responses, which Fastify's generator
 * does not carry from a route's schema.
 */
export function withLinks<D>(document: D): D {
  const { paths } = document as Paths
  for (const route of contractRoutes.values()) {
    const operation = paths?.[route.path]?.[route.method.toLowerCase()]
    for (const [status, links] of Object.entries(route.links ?? {})) {
      const response = operation?.responses?.[status]
      if (response) response.links = structuredClone(links)
    }
  }
  return document
}

/**
 * A route's schema as the document shows it: a response that also comes in other media
 * types (NDJSON beside JSON) lists each. The route itself keeps the JSON schema alone,
 * which its serializer compiles.
 */
export function withMedia(schema: FastifySchema & { operationId?: string }): FastifySchema {
  // A route without a schema (none of the API's) has none to change.
  const media = contractRoutes.get(schema?.operationId ?? '')?.media
  if (media === undefined) return schema
  const response = { ...(schema.response as Record<string, TSchema>) }
  for (const [status, others] of Object.entries(media)) {
    const json = response[status]
    if (json === undefined) continue
    const { description, headers, ...body } = json
    const content = { 'application/json': { schema: body } }
    for (const [type, other] of Object.entries(others ?? {})) {
      Object.assign(content, { [type]: { schema: other } })
    }
    response[status] = { description, headers, content } as unknown as TSchema
  }
  return { ...schema, response }
}

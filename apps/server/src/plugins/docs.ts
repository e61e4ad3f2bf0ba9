import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { type ServerFeatures, schemas } from '@tasklane/contract'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { withLinks, withMedia } from '../http/openapi-extras.js'
import { DOCS_PATH } from '../http/public-paths.js'
import { DOCS_CSP } from './security-headers.js'

/** The scheme of the API token, named in the document when the server requires one. */
const BEARER = { bearerAuth: { type: 'http', scheme: 'bearer' } } as const

/**
 * The API description: the contract's named schemas, the OpenAPI 3.1 document generated
 * from the routes at `/openapi.json`, and Swagger UI at `/docs`. With an API token, the
 * document requires it (bearer), which gives Swagger UI its Authorize button.
 */
export default fp(
  async function docs(app: FastifyInstance, { apiToken }: ServerFeatures) {
    for (const schema of schemas) app.addSchema(schema)
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'tasklane',
          version: '1.0.0',
          description: 'Create, list, change, delete and watch tasks over HTTP/JSON.',
          license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
          contact: { name: 'tasklane', url: 'https://www.npmjs.com/package/@tasklane/server' },
        },
        // Relative here (the document as built); /openapi.json names the absolute origin.
        servers: [{ url: '/', description: 'This server' }],
        // Without a token, an explicit "none": no operation requires a credential.
        ...(apiToken
          ? { components: { securitySchemes: BEARER }, security: [{ bearerAuth: [] }] }
          : { security: [] }),
        tags: [
          { name: 'tasks', description: 'The collection of tasks' },
          { name: 'task', description: 'A single task' },
          { name: 'lists', description: 'The lists the caller can read' },
          { name: 'list', description: 'A single list and its members' },
          { name: 'tokens', description: 'Access tokens, and the caller itself' },
          { name: 'webhooks', description: "Webhooks: the caller's changes posted to a URL" },
        ],
      },
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
      },
      transform: ({ schema, url }) => ({ schema: withMedia(schema), url }),
      transformObject: (document) =>
        'openapiObject' in document ? withLinks(document.openapiObject) : document.swaggerObject,
    })
    // Swagger UI's page loads its scripts from files (no inline script), so it renders
    // under a CSP of its own origin; security-headers.ts sends it.
    await app.register(swaggerUi, { routePrefix: DOCS_PATH, staticCSP: DOCS_CSP })
    // The origin the request came to (through a trusted proxy: the one the client used), so
    // that a client generated from the document works outside a browser too, where a
    // relative URL has nothing to resolve against.
    app.get('/openapi.json', { schema: { hide: true } }, async (request) => {
      const document = app.swagger()
      if (!request.host) return document
      const url = `${request.protocol}://${request.host}`
      return { ...document, servers: [{ url, description: 'This server' }] }
    })
  },
  { name: 'docs' },
)

import { Readable } from 'node:stream'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { routes, type ServerFeatures } from '@tasklane/contract'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { fromContract } from '../http/route-options.js'
import type { Feed } from '../tasks/feed.js'

/** Sends `events` as the body: the route's typed reply is the event text, the stream is that. */
function sendStream(reply: FastifyReply, events: Readable) {
  return reply.send(events)
}

/** GET /tasks/events: the change feed as Server-Sent Events. */
export async function feedRoutes(
  app: FastifyInstance,
  { feed, features }: { feed: Feed; features: ServerFeatures },
) {
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    ...fromContract(routes.watchTasks, features),
    handler: async (request, reply) => {
      // Last-Event-ID is where a reconnecting client left off: it wins over `after`.
      const after = request.headers['last-event-id'] ?? request.query.after
      reply
        .type('text/event-stream')
        // For a proxy that buffers responses by default: events must pass at once.
        .header('X-Accel-Buffering', 'no')
      // An endless stream's headers, without claiming a length of 0 as an empty body would.
      if (request.method === 'HEAD') return sendStream(reply, Readable.from([]))
      const { tag, status, list, priority, dueFrom, dueTo, tz } = request.query
      const events = await feed.subscribe({
        after,
        tag,
        status,
        priority,
        dueFrom,
        dueTo,
        tz,
        list,
        credential: request.credential,
        connection: reply.raw,
      })
      return sendStream(reply, events)
    },
  })
}

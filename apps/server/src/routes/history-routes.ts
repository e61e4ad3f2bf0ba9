import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { routes, type ServerFeatures } from '@tasklane/contract'
import type { FastifyInstance } from 'fastify'
import type { TaskHistoryReads } from '../history/task-history.js'
import { fromContract, namesOneResource } from '../http/route-options.js'

/** GET /tasks/{id}/history: a task's changes, newest first, a page at a time. */
export async function historyRoutes(
  app: FastifyInstance,
  { history, features }: { history: TaskHistoryReads; features: ServerFeatures },
) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.route({
    ...fromContract(routes.getTaskHistory, features),
    onRequest: namesOneResource(app),
    handler: async (request, reply) => {
      const { id } = request.params
      const page = await history.history(request.credential.caller, id, request.query)
      if (page.next !== undefined) {
        const limit = request.query.limit ?? page.value.length
        reply.header(
          'Link',
          `</tasks/${id}/history?limit=${limit}&before=${page.next}>; rel="next"`,
        )
      }
      return reply.header('Tasklane-Seq', page.seq).send(page.value)
    },
  })
}

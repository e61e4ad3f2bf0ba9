import { Readable } from 'node:stream'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { type RouteDefinition, routes, type Task } from '@tasklane/contract'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Database } from '../db/database.js'
import { HttpError } from '../errors.js'
import { headerLines, pathOf } from '../http.js'
import { type CachedPage, PageCache } from './page-cache.js'
import {
  findTask,
  type ListFilter,
  listTasks,
  purgeIdempotencyKeys,
  streamTasks,
  taskIdsFrom,
} from './repository.js'
import { createTaskWriter, IDEMPOTENCY_TTL_MS } from './writer.js'

/** Pages up to this size are built in memory; larger ones and the full list are streamed. */
const BUFFERED_PAGE_MAX = 1000

/** Fastify route options from a contract route: the schema travels unchanged. */
export function fromContract<const R extends RouteDefinition>(route: R) {
  const { method, path, ...schema } = route
  return { method, url: path.replace(/\{(\w+)\}/g, ':$1'), schema }
}

function nextLink(limit: number, lastId: number, tag: string | undefined): string {
  const tagParam = tag === undefined ? '' : `&tag=${encodeURIComponent(tag)}`
  return `</tasks?limit=${limit}&after=${lastId}${tagParam}>; rel="next"`
}

/** Sends a serialized page as is; its body went through the route's schema once. */
function sendPage(reply: FastifyReply, page: CachedPage): FastifyReply {
  return reply.header('Link', page.link).type('application/json; charset=utf-8').send(page.body)
}

/** `[`, the tasks separated by commas, `]`, written as the chunks arrive. */
async function* jsonArray(chunks: AsyncIterable<Task[]>): AsyncGenerator<string> {
  let separator = '['
  for await (const tasks of chunks) {
    let text = ''
    for (const task of tasks) {
      text += separator + JSON.stringify(task)
      separator = ','
    }
    yield text
  }
  yield separator === '[' ? '[]' : ']'
}

/** GET /tasks, POST /task and GET /tasks/{id}, registered from the contract's route objects. */
export async function taskRoutes(
  app: FastifyInstance,
  { database, groupCommit = true }: { database: Database; groupCommit?: boolean },
) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { db } = database
  const writer = createTaskWriter(database, { maxBatch: groupCommit ? 512 : 1 })
  const pages = new PageCache()

  // Resolves to nothing: Fastify's onReady takes a value it is handed as an error, so
  // returning the count of purged keys made a restart with expired keys fail to start.
  const purge = async (): Promise<void> => {
    try {
      const purged = await purgeIdempotencyKeys(db, Date.now() - IDEMPOTENCY_TTL_MS)
      if (purged > 0) app.log.info({ purged }, 'purged expired idempotency keys')
    } catch (error) {
      app.log.warn({ err: error }, 'could not purge expired idempotency keys')
    }
  }
  const purgeTimer = setInterval(purge, 60 * 60 * 1000).unref()
  app.addHook('onReady', purge)
  app.addHook('onClose', async () => {
    clearInterval(purgeTimer)
    await writer.close()
  })

  api.route({
    ...fromContract(routes.getTasks),
    handler: async (request, reply) => {
      const { limit, after, tag } = request.query
      const filter: ListFilter = { after, tag }
      if (limit === 0) return []
      if (limit !== undefined && limit <= BUFFERED_PAGE_MAX) {
        const key = PageCache.key(limit, after, tag)
        const cached = pages.get(key)
        if (cached) return sendPage(reply, cached)
        const tasks = await listTasks(db, filter, limit + 1)
        if (tasks.length <= limit) return tasks // The last page: it may still grow.
        tasks.length = limit
        const last = (tasks.at(-1) as Task).id
        const page = { body: reply.serialize(tasks) as string, link: nextLink(limit, last, tag) }
        pages.set(key, page)
        return sendPage(reply, page)
      }
      if (limit !== undefined) {
        // One query: the page's last id, and whether a task follows it.
        const [lastId, following] = await taskIdsFrom(db, filter, limit, 2)
        if (lastId !== undefined && following !== undefined) {
          reply.header('Link', nextLink(limit, lastId, tag))
        }
      }
      reply.type('application/json; charset=utf-8')
      // The route's reply type is the parsed array; a stream is sent as is, unserialized.
      return (reply as FastifyReply).send(Readable.from(jsonArray(streamTasks(db, filter, limit))))
    },
  })

  api.route({
    ...fromContract(routes.createTask),
    onRequest: (request, _reply, done) => {
      // Checked before parsing: a body-less request without Content-Type skips the parser
      // but is still the wrong type, and Node keeps only the first of several Content-Type
      // lines where a proxy may read the last.
      const lines = headerLines(request.raw.rawHeaders, 'content-type')
      done(
        lines === 1
          ? undefined
          : new HttpError(
              415,
              lines === 0
                ? 'Content-Type must be application/json.'
                : 'Content-Type must be given once, as application/json.',
            ),
      )
    },
    handler: async (request, reply) => {
      const { task, replayed } = await writer.create(
        request.body,
        request.headers['idempotency-key'],
      )
      if (replayed) reply.header('Idempotent-Replayed', 'true')
      return reply.code(201).header('Location', `/tasks/${task.id}`).send(task)
    },
  })

  api.route({
    ...fromContract(routes.getTask),
    preValidation: (request, _reply, done) => {
      // `/tasks/` matches this route with an empty id; it names no task, so no route.
      const { id } = request.params as { id: unknown }
      done(id === '' ? new HttpError(404, `No route matches GET ${request.url}.`) : undefined)
    },
    handler: async (request) => {
      const { id } = request.params
      // No id above 2^53-1 is ever issued; such an id, which a number cannot hold exactly,
      // is named as the client sent it.
      if (!Number.isSafeInteger(id)) {
        throw new HttpError(404, `Task ${pathOf(request.url).split('/').pop()} does not exist.`)
      }
      const task = await findTask(db, id)
      if (!task) throw new HttpError(404, `Task ${id} does not exist.`)
      return task
    },
  })
}

import { Readable } from 'node:stream'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { type RouteDefinition, routes, type Task } from '@tasklane/contract'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Database } from '../db/database.js'
import { HttpError } from '../errors.js'
import {
  findTask,
  insertTask,
  type ListFilter,
  listTasks,
  nthTaskId,
  streamTasks,
} from './repository.js'

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
export async function taskRoutes(app: FastifyInstance, { database }: { database: Database }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { db } = database

  api.route({
    ...fromContract(routes.getTasks),
    handler: async (request, reply) => {
      const { limit, after, tag } = request.query
      const filter: ListFilter = { after, tag }
      if (limit === 0) return []
      if (limit !== undefined && limit <= BUFFERED_PAGE_MAX) {
        const tasks = await listTasks(db, filter, limit + 1)
        if (tasks.length > limit) {
          tasks.length = limit
          reply.header('Link', nextLink(limit, (tasks.at(-1) as Task).id, tag))
        }
        return tasks
      }
      if (
        limit !== undefined &&
        limit > 0 &&
        (await nthTaskId(db, filter, limit + 1)) !== undefined
      ) {
        const lastId = (await nthTaskId(db, filter, limit)) as number
        reply.header('Link', nextLink(limit, lastId, tag))
      }
      reply.type('application/json; charset=utf-8')
      // The route's reply type is the parsed array; a stream is sent as is, unserialized.
      return (reply as FastifyReply).send(Readable.from(jsonArray(streamTasks(db, filter, limit))))
    },
  })

  api.route({
    ...fromContract(routes.createTask),
    preValidation: async (request) => {
      // A body-less request without Content-Type skips parsing; it is still the wrong type.
      if (request.headers['content-type'] === undefined) {
        throw new HttpError(415, 'Content-Type must be application/json.')
      }
    },
    handler: async (request, reply) => {
      const task = await insertTask(db, request.body)
      return reply.code(201).header('Location', `/tasks/${task.id}`).send(task)
    },
  })

  api.route({
    ...fromContract(routes.getTask),
    handler: async (request) => {
      const task = Number.isSafeInteger(request.params.id)
        ? await findTask(db, request.params.id)
        : undefined
      if (!task) throw new HttpError(404, `Task ${request.params.id} does not exist.`)
      return task
    },
  })
}

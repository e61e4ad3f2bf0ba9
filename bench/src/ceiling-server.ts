/**
 * The ceiling: bare Fastify 5 with tasklane's route shapes and payloads and no storage.
 * GET /tasks answers 20 constant tasks through the contract's response schema; POST /task
 * validates the contract's NewTask body and echoes it with an id; PATCH /tasks/:id validates
 * the contract's id and TaskPatch and answers a constant task with the patch applied; DELETE
 * /tasks/:id validates the id and answers 204. Run as its own process
 * by the benchmark (`PORT`, `HOST` from the environment); whatever tasklane does beyond
 * this is what its ratio to the ceiling measures.
 */
import { isDue, routes, schemas } from '@tasklane/contract'
import Fastify from 'fastify'
import { CREATED, seedTask } from './seed.js'

// The contract's string formats, as tasklane's server registers them (`due` on GET /tasks).
const app = Fastify({
  logger: false,
  ajv: { customOptions: { formats: { int32: true, int64: true, due: isDue } } },
})
for (const schema of schemas) app.addSchema(schema)

const page = Array.from({ length: 20 }, (_, i) => seedTask(i + 1))
let nextId = 1

app.get(
  '/tasks',
  {
    schema: {
      querystring: routes.getTasks.querystring,
      response: { 200: routes.getTasks.response[200] },
    },
  },
  async () => page,
)

app.post(
  '/task',
  { schema: { body: routes.createTask.body, response: { 201: routes.createTask.response[201] } } },
  async (request, reply) => {
    const task = { ...seedTask(nextId++), ...CREATED, ...(request.body as object) }
    return reply.code(201).header('Location', `/tasks/${task.id}`).send(task)
  },
)

app.patch(
  '/tasks/:id',
  {
    schema: {
      params: routes.updateTask.params,
      body: routes.updateTask.body,
      response: { 200: routes.updateTask.response[200] },
    },
  },
  async (request, reply) => {
    const { id } = request.params as { id: number }
    const task = { ...seedTask(id), ...(request.body as object), version: 2 }
    return reply.header('ETag', '"2"').send(task)
  },
)

app.delete(
  '/tasks/:id',
  { schema: { params: routes.deleteTask.params } },
  async (_request, reply) => reply.code(204).send(),
)

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' })
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)))

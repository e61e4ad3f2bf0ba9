import { accessMethods } from './access-methods.js'
import { exportTasks } from './export-tasks.js'
import { seqOf } from './feed.js'
import { historyMethods } from './history-methods.js'
import { listMethods } from './list-methods.js'
import { moveBody } from './move-body.js'
import type {
  ChangeOptions,
  ClientOptions,
  ListTasksOptions,
  ReadOptions,
  RequestOptions,
} from './options.js'
import { type PageQuery, pageSizeOf, paginate } from './pagination.js'
import { CREATE_PATH, fillPath, LIST_PATH, MOVE_PATH, TASK_PATH } from './paths.js'
import { readOne, write } from './resource-calls.js'
import { listTasksQuery } from './task-query.js'
import type { TasklaneClient } from './tasklane-client.js'
import { Transport } from './transport.js'
import type { Task, TaskPatch } from './types.js'
import { watchTasks } from './watch.js'
import { webhookMethods } from './webhook-methods.js'

/**
 * Creates a client for a tasklane server. Needs only `fetch`; tested on Node 20, 22 and 24,
 * Bun, Deno and Chromium.
 * @example
 * import { createClient } from '@tasklane/client'
 *
 * const client = createClient({ baseUrl: 'http://127.0.0.1:3000' })
 * await client.createTask({ name: 'Write docs' })
 * const tasks = await client.listTasks(5)
 */
export function createClient(options: ClientOptions): TasklaneClient {
  const transport = new Transport(options)

  const page = (query: PageQuery, call: RequestOptions | undefined) =>
    transport.send<Task[]>({
      method: 'GET',
      path: LIST_PATH,
      query,
      schema: 'Task[]',
      options: call,
    })
  const list = (limit: number | undefined, call: ListTasksOptions | undefined) =>
    page(listTasksQuery(limit, call), call)

  const taskPath = (id: number) => fillPath(TASK_PATH, id)

  const update = (id: number, patch: TaskPatch, call?: ChangeOptions) =>
    write<Task>(
      transport,
      { method: 'PATCH', path: taskPath(id), body: patch, schema: 'Task' },
      call,
    )

  return {
    options,
    listTasks: async (limit, call) => (await list(limit, call)).data,
    createTask: (task, call) =>
      write(transport, { method: 'POST', path: CREATE_PATH, body: task, schema: 'Task' }, call),
    // One implementation of both overloads: a 304 has no body, so it resolves to undefined.
    getTask: ((id: number, call?: ReadOptions) =>
      readOne(transport, taskPath(id), 'Task', call)) as TasklaneClient['getTask'],
    updateTask: update,
    completeTask: (id, call) => update(id, { status: 'done' }, call),
    reopenTask: (id, call) => update(id, { status: 'open' }, call),
    deleteTask: (id, call) => write(transport, { method: 'DELETE', path: taskPath(id) }, call),
    moveTask: (id, to, call) =>
      write(
        transport,
        { method: 'POST', path: fillPath(MOVE_PATH, id), body: moveBody(to, call), schema: 'Task' },
        call,
      ),
    async *tasks(call = {}) {
      const pageSize = pageSizeOf(call.pageSize)
      const first = listTasksQuery(pageSize, call)
      const fetchPage = async (query: PageQuery) => {
        const { data, response } = await page(query, call)
        return { items: data, link: response.headers.get('link') }
      }
      // Without a Link (hidden by CORS), only the id order can be walked by the client:
      // `after` oldest first, `before` newest first.
      const cursor = call.order === 'desc' ? 'before' : 'after'
      const byId = call.sort === undefined || call.sort === 'id'
      yield* paginate(fetchPage, {
        first,
        pageSize,
        after: byId ? (last) => ({ ...first, [cursor]: last.id }) : undefined,
      })
    },
    exportTasks: (call) => exportTasks(transport, call),
    // The newest seq comes with any listing, the emptiest one included.
    watch: (call = {}) =>
      watchTasks(transport, call, async () => seqOf((await list(0, call)).response)),
    ...historyMethods(transport),
    ...listMethods(transport),
    ...accessMethods(transport),
    ...webhookMethods(transport),
  }
}

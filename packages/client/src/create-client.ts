import { exportTasks } from './export-tasks.js'
import { seqOf } from './feed.js'
import { newIdempotencyKey } from './idempotency-key.js'
import type {
  ChangeTaskOptions,
  ClientOptions,
  GetTaskOptions,
  ListTasksOptions,
} from './options.js'
import { paginate } from './pagination.js'
import { CREATE_PATH, LIST_PATH, TASK_PATH } from './paths.js'
import type { TasklaneClient } from './tasklane-client.js'
import { type JsonRequest, Transport } from './transport.js'
import type { Task, TaskPatch } from './types.js'
import { watchTasks } from './watch.js'

const DEFAULT_PAGE_SIZE = 100

/** A version as an entity tag (`3` → `"3"`); a string is taken as the header's value itself. */
const etag = (value: number | string | undefined) =>
  typeof value === 'number' ? `"${value}"` : value

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

  const list = (limit: number | undefined, call: ListTasksOptions | undefined) =>
    transport.send<Task[]>({
      method: 'GET',
      path: LIST_PATH,
      query: {
        limit,
        after: call?.after,
        before: call?.before,
        order: call?.order,
        tag: call?.tag,
        status: call?.status,
      },
      schema: 'Task[]',
      options: call,
    })

  /**
   * A write: with retries on and no key of the caller's, a key of its own for each call,
   * so that a retry is the server's replay of the first attempt, never a second change.
   */
  const write = async <T>(
    request: Omit<JsonRequest, 'options'>,
    call: ChangeTaskOptions | undefined,
  ) => {
    let key = call?.idempotencyKey
    if (key === undefined && transport.retrySettings(call?.retry).maxRetries > 0) {
      key = newIdempotencyKey()
    }
    const ifMatch = etag(call?.ifMatch)
    return (
      await transport.send<T>({
        ...request,
        headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
        idempotencyKey: key,
        options: call,
      })
    ).data
  }

  const taskPath = (id: number) => TASK_PATH.replace('{id}', encodeURIComponent(String(id)))

  const update = (id: number, patch: TaskPatch, call?: ChangeTaskOptions) =>
    write<Task>({ method: 'PATCH', path: taskPath(id), body: patch, schema: 'Task' }, call)

  return {
    options,
    listTasks: async (limit, call) => (await list(limit, call)).data,
    createTask: (task, call) =>
      write<Task>({ method: 'POST', path: CREATE_PATH, body: task, schema: 'Task' }, call),
    // One implementation of both overloads: a 304 has no body, so it resolves to undefined.
    getTask: (async (id: number, call?: GetTaskOptions) => {
      const ifNoneMatch = etag(call?.ifNoneMatch)
      return (
        await transport.send<Task>({
          method: 'GET',
          path: taskPath(id),
          headers: ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch },
          schema: 'Task',
          options: call,
        })
      ).data
    }) as TasklaneClient['getTask'],
    updateTask: update,
    completeTask: (id, call) => update(id, { status: 'done' }, call),
    reopenTask: (id, call) => update(id, { status: 'open' }, call),
    deleteTask: (id, call) => write<undefined>({ method: 'DELETE', path: taskPath(id) }, call),
    async *tasks(call = {}) {
      const pageSize = call.pageSize ?? DEFAULT_PAGE_SIZE
      if (!Number.isInteger(pageSize) || pageSize < 1) {
        throw new RangeError(`pageSize must be a positive integer, got ${pageSize}.`)
      }
      // The cursor that moves: `after` oldest first, `before` newest first.
      const cursor = call.order === 'desc' ? 'before' : 'after'
      const fetchPage = async (position: number | undefined) => {
        const { data, response } = await list(pageSize, { ...call, [cursor]: position })
        return { items: data, link: response.headers.get('link') }
      }
      yield* paginate(fetchPage, { cursor, pageSize, start: call[cursor] })
    },
    exportTasks: (call) => exportTasks(transport, call),
    // The newest seq comes with any listing, the emptiest one included.
    watch: (call = {}) =>
      watchTasks(transport, call, async () => seqOf((await list(0, call)).response)),
  }
}

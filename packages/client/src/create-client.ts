import type { NewTask, routes, Task } from '@tasklane/contract'
import { AbortError, ApiError, ConnectionError, TimeoutError } from './errors.js'

/** How to reach the server and how every request is sent. */
export interface ClientOptions {
  /** Where the server listens, e.g. `http://127.0.0.1:3000` (a path prefix is kept). */
  baseUrl: string
  /** The fetch to use; defaults to the global one. Pass one in for tests or custom agents. */
  fetch?: typeof globalThis.fetch
  /** Headers sent with every request. */
  headers?: Record<string, string>
  /** Milliseconds to wait for a whole response before failing with TimeoutError; 0 waits forever. Default 30000. */
  timeoutMs?: number
}

/** Options of a single call. */
export interface RequestOptions {
  /** Aborts the call; it then rejects with AbortError. */
  signal?: AbortSignal
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number
  /** Extra headers for this call. */
  headers?: Record<string, string>
}

/** Options of `listTasks`: keyset pagination and tag filter. */
export interface ListTasksOptions extends RequestOptions {
  /** Only tasks whose id is greater than this. */
  after?: number
  /** Only tasks with exactly this tag. */
  tag?: string
}

/** A typed tasklane client. */
export interface TasklaneClient {
  /**
   * Lists tasks in ascending id order: at most `limit`, or all of them when omitted.
   * @example
   * const firstFive = await client.listTasks(5)
   */
  listTasks(limit?: number, options?: ListTasksOptions): Promise<Task[]>
  /**
   * Creates a task and returns it with its id.
   * @example
   * const task = await client.createTask({ name: 'Write docs', tag: 'docs' })
   */
  createTask(task: NewTask, options?: RequestOptions): Promise<Task>
  /**
   * Reads one task; rejects with an ApiError of status 404 when it does not exist.
   * @example
   * const task = await client.getTask(1)
   */
  getTask(id: number, options?: RequestOptions): Promise<Task>
}

// The paths are checked against the contract: if a route moves, this stops compiling.
const LIST_PATH: (typeof routes)['getTasks']['path'] = '/tasks'
const CREATE_PATH: (typeof routes)['createTask']['path'] = '/task'
const GET_PATH: (typeof routes)['getTask']['path'] = '/tasks/{id}'

const DEFAULT_TIMEOUT_MS = 30_000

/** Everything one HTTP call needs. */
interface Call {
  method: (typeof routes)[keyof typeof routes]['method']
  path: string
  query?: Record<string, string | number | undefined>
  body?: unknown
  options: RequestOptions | undefined
}

function queryString(query: Call['query']): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.append(key, String(value))
  }
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

async function readError(response: Response, method: string, url: string): Promise<ApiError> {
  const text = await response.text().catch(() => '')
  let body: unknown = text === '' ? undefined : text
  try {
    body = JSON.parse(text)
  } catch {}
  const error = body as { code?: unknown; message?: unknown } | undefined
  const valid = typeof error === 'object' && typeof error.message === 'string'
  const message = valid
    ? (error.message as string)
    : `Request failed with status ${response.status}: ${method} ${url}`
  const code = valid && typeof error.code === 'number' ? error.code : response.status
  return new ApiError(
    response.status,
    code,
    message,
    method,
    url,
    body as ApiError['body'],
    response,
  )
}

/**
 * Creates a client for a tasklane server. Works wherever `fetch` does: Node 20+, browsers,
 * Deno, Bun and edge runtimes.
 * @example
 * import { createClient } from '@tasklane/client'
 *
 * const client = createClient({ baseUrl: 'http://127.0.0.1:3000' })
 * await client.createTask({ name: 'Write docs' })
 * const tasks = await client.listTasks(5)
 */
export function createClient(options: ClientOptions): TasklaneClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const defaultTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS

  async function request<T>({ method, path, query, body, options: call }: Call): Promise<T> {
    const fetch = options.fetch ?? globalThis.fetch
    const url = baseUrl + path + queryString(query)
    const timeoutMs = call?.timeoutMs ?? defaultTimeout
    const controller = new AbortController()
    const timer =
      timeoutMs > 0
        ? setTimeout(
            () =>
              controller.abort(
                new TimeoutError(
                  `No response within ${timeoutMs} ms: ${method} ${url}`,
                  method,
                  url,
                ),
              ),
            timeoutMs,
          )
        : undefined
    const userSignal = call?.signal
    const onAbort = () =>
      controller.abort(
        new AbortError(`Request aborted: ${method} ${url}`, method, url, {
          cause: userSignal?.reason,
        }),
      )
    if (userSignal?.aborted) onAbort()
    userSignal?.addEventListener('abort', onAbort, { once: true })
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...options.headers,
      ...call?.headers,
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    try {
      let response: Response
      try {
        response = await fetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
        })
      } catch (error) {
        throw controller.signal.aborted
          ? controller.signal.reason
          : new ConnectionError(`Could not reach the server: ${method} ${url}`, method, url, {
              cause: error,
            })
      }
      if (!response.ok) throw await readError(response, method, url)
      try {
        return (await response.json()) as T
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason
        throw new ConnectionError(
          `The response was cut off or is not JSON: ${method} ${url}`,
          method,
          url,
          { cause: error },
        )
      }
    } finally {
      clearTimeout(timer)
      userSignal?.removeEventListener('abort', onAbort)
    }
  }

  return {
    listTasks: (limit, call) =>
      request<Task[]>({
        method: 'GET',
        path: LIST_PATH,
        query: { limit, after: call?.after, tag: call?.tag },
        options: call,
      }),
    createTask: (task, call) =>
      request<Task>({ method: 'POST', path: CREATE_PATH, body: task, options: call }),
    getTask: (id, call) =>
      request<Task>({
        method: 'GET',
        path: GET_PATH.replace('{id}', encodeURIComponent(String(id))),
        options: call,
      }),
  }
}

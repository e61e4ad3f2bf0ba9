import type { routes } from '@tasklane/contract'
import {
  AbortError,
  ApiError,
  ConnectionError,
  isTasklaneError,
  TimeoutError,
  ValidationError,
} from './errors.js'
import { newIdempotencyKey } from './idempotency-key.js'
import { lines } from './lines.js'
import { nextCursor } from './link-header.js'
import { type RetryOptions, retryDelay, retrySettings } from './retry.js'
import type { NewTask, Task } from './types.js'

/** Where a response body fails the contract: a path such as `[3].name` and why. */
export interface ValidationIssue {
  /** Path into the body: `id`, `[3].name`; empty for the body itself. */
  path: string
  /** Why it fails, e.g. `must be an integer`. */
  message: string
}

/**
 * Checks a response body against a contract schema; returns undefined when it fits. The
 * `@tasklane/client/validate` entry point exports one, `validateResponses`.
 */
export type ResponseValidator = (
  schema: 'Task' | 'Task[]',
  body: unknown,
) => ValidationIssue | undefined

/** How to reach the server and how every request is sent. */
export interface ClientOptions {
  /** Where the server listens, e.g. `http://127.0.0.1:3000` (a path prefix is kept). */
  baseUrl: string
  /** The fetch to use; defaults to the global one. Pass one in for tests or custom agents. */
  fetch?: typeof globalThis.fetch
  /** Headers sent with every request. */
  headers?: Record<string, string>
  /** API token, sent as `Authorization: Bearer <token>`; a function is asked before every attempt. */
  token?: string | (() => string | Promise<string>)
  /** Milliseconds to wait for each attempt's whole response before a TimeoutError; 0 waits forever. Default 30000. */
  timeoutMs?: number
  /** Retry settings, or `false` for none. Default: 2 retries, 500 ms doubling up to 8 s, with jitter. */
  retry?: RetryOptions | false
  /** Checks every response body, e.g. `validateResponses` from `@tasklane/client/validate`. */
  validate?: ResponseValidator
}

/** Options of a single call. */
export interface RequestOptions {
  /** Aborts the call, also while it waits to retry; it then rejects with AbortError. */
  signal?: AbortSignal
  /** Overrides the client's `timeoutMs` for this call (per attempt). */
  timeoutMs?: number
  /** Extra headers for this call. */
  headers?: Record<string, string>
  /** Overrides the client's `retry` for this call; `false` turns retrying off. */
  retry?: RetryOptions | false
}

/** Options of `createTask`. */
export interface CreateTaskOptions extends RequestOptions {
  /**
   * Idempotency-Key header. Without one, the client generates a fresh key per call when
   * retries are on, so that a retried create can never make two tasks.
   */
  idempotencyKey?: string
}

/** Options of `listTasks`: keyset pagination, order and tag filter. */
export interface ListTasksOptions extends RequestOptions {
  /** Only tasks whose id is greater than this. */
  after?: number
  /** Only tasks whose id is less than this. */
  before?: number
  /** Only tasks with exactly this tag. */
  tag?: string
  /** `'asc'` (the default): oldest first; `'desc'`: newest first. */
  order?: 'asc' | 'desc'
}

/**
 * Options of `exportTasks`: which tasks, in which order. `timeoutMs` is the longest
 * silence between two chunks of the stream; `retry` resumes a broken export after the
 * last task it yielded.
 */
export type ExportTasksOptions = ListTasksOptions

/**
 * Options of `watch`: where to start and which tasks to follow. `signal` ends the watch;
 * `timeoutMs` (default 30 s) is the longest silence before the connection is taken for
 * dead and opened again (the server sends a keep-alive at least every 15 s); `retry`
 * sets the backoff between reconnections, or `false` for none.
 */
export interface WatchOptions extends RequestOptions {
  /** Start after this id: the tasks above it come first. Default: new tasks only. */
  after?: number
  /** Only tasks with exactly this tag. */
  tag?: string
}

/** Options of `tasks`: which tasks to walk through and how many to fetch per request. */
export interface TasksOptions extends ListTasksOptions {
  /** Tasks fetched per request (the `limit` of each page). Default 100. */
  pageSize?: number
}

/** A typed tasklane client. */
export interface TasklaneClient {
  /**
   * Lists tasks in ascending id order (`order: 'desc'`: newest first): at most `limit`, or
   * all of them when omitted.
   * @example
   * const firstFive = await client.listTasks(5)
   * const nextFive = await client.listTasks(5, { after: firstFive.at(-1)?.id })
   * const newest = await client.listTasks(5, { order: 'desc' })
   */
  listTasks(limit?: number, options?: ListTasksOptions): Promise<Task[]>
  /**
   * Creates a task and returns it with its id. Safe to retry: every attempt of one call
   * carries the same Idempotency-Key.
   * @example
   * const task = await client.createTask({ name: 'Write docs', tag: 'docs' })
   */
  createTask(task: NewTask, options?: CreateTaskOptions): Promise<Task>
  /**
   * Reads one task; rejects with an ApiError of status 404 when it does not exist.
   * @example
   * const task = await client.getTask(1)
   */
  getTask(id: number, options?: RequestOptions): Promise<Task>
  /**
   * Every matching task in ascending id order (or newest first with `order: 'desc'`),
   * fetched a page at a time as the loop goes on.
   * @example
   * for await (const task of client.tasks({ tag: 'docs', pageSize: 50 })) console.log(task.name)
   */
  tasks(options?: TasksOptions): AsyncGenerator<Task, void, undefined>
  /**
   * Every matching task, streamed in one response (NDJSON) rather than page by page; a
   * broken download resumes after the last task yielded.
   * @example
   * for await (const task of client.exportTasks({ order: 'desc' })) console.log(task.id)
   */
  exportTasks(options?: ExportTasksOptions): AsyncGenerator<Task, void, undefined>
  /**
   * Follows tasks as they are created (the change feed): each matching task exactly once,
   * in id order, reconnecting with backoff after a failure and resuming after the last
   * task yielded. Runs until `signal` aborts, then ends without an error.
   * @example
   * const stop = new AbortController()
   * for await (const task of client.watch({ tag: 'docs', signal: stop.signal })) console.log(task.name)
   */
  watch(options?: WatchOptions): AsyncGenerator<Task, void, undefined>
}

// The paths are checked against the contract: if a route moves, this stops compiling.
const LIST_PATH: (typeof routes)['getTasks']['path'] = '/tasks'
const CREATE_PATH: (typeof routes)['createTask']['path'] = '/task'
const GET_PATH: (typeof routes)['getTask']['path'] = '/tasks/{id}'
const WATCH_PATH: (typeof routes)['watchTasks']['path'] = '/tasks/events'

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_PAGE_SIZE = 100

/** Everything one HTTP call needs. */
interface Call {
  method: (typeof routes)[keyof typeof routes]['method']
  path: string
  query?: Record<string, string | number | undefined>
  body?: unknown
  schema: 'Task' | 'Task[]'
  options: CreateTaskOptions | undefined
}

function queryString(query: Call['query']): string {
  let text = ''
  for (const key in query) {
    const value = query[key]
    if (value === undefined) continue
    // An integer needs no escaping; anything else is encoded as URLSearchParams would.
    const pair =
      typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 1e21
        ? `${key}=${value}`
        : new URLSearchParams({ [key]: String(value) }).toString()
    text += (text === '' ? '?' : '&') + pair
  }
  return text
}

async function readError(response: Response, method: string, url: string): Promise<ApiError> {
  const text = await response.text().catch(() => '')
  let body: unknown = text === '' ? undefined : text
  try {
    body = JSON.parse(text)
  } catch {}
  // Any JSON may come back, `null` included: only an object with a string message is an Error body.
  const error = body as { code?: unknown; message?: unknown } | null | undefined
  const valid = typeof error === 'object' && error !== null && typeof error.message === 'string'
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

/** Resolves after `ms`, or rejects with the abort error as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined, abort: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(abort())
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
  })
}

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
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const defaultTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS

  /** Headers of a call: what it accepts, then the client's and the call's own. */
  const headersFor = (
    accept: string,
    opts: RequestOptions | undefined,
  ): Record<string, string> => ({
    accept,
    ...options.headers,
    ...opts?.headers,
  })

  /** Sends the request; resolves with a 2xx response whose body is not read yet. */
  async function open(
    call: Call,
    url: string,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    const fetch = options.fetch ?? globalThis.fetch
    const { method, body } = call
    if (options.token !== undefined) {
      const token = typeof options.token === 'function' ? await options.token() : options.token
      headers = { ...headers, authorization: `Bearer ${token}` }
    }
    let response: Response
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      })
    } catch (error) {
      throw signal?.aborted
        ? signal.reason
        : new ConnectionError(`Could not reach the server: ${method} ${url}`, method, url, {
            cause: error,
          })
    }
    if (!response.ok) throw await readError(response, method, url)
    return response
  }

  /** `data` as the contract's `schema`, when the client checks responses; else as is. */
  function checked<T>(schema: Call['schema'], data: unknown, method: string, url: string): T {
    const issue = options.validate?.(schema, data)
    if (issue) {
      throw new ValidationError(
        `The response to ${method} ${url} does not match the contract: ${issue.path || 'the body'} ${issue.message}.`,
        method,
        url,
        issue.path,
        data,
      )
    }
    return data as T
  }

  /** One attempt: a response with a 2xx status and a parsed body, or a thrown TasklaneError. */
  async function attempt(call: Call, url: string, headers: Record<string, string>) {
    const { method, options: opts } = call
    const timeoutMs = opts?.timeoutMs ?? defaultTimeout
    const userSignal = opts?.signal
    // A signal is the dearest part of a call: creating it, plus what Node's fetch does with
    // one (a listener, a WeakRef, a finalizer), is about 4 % of a local GET. So none is made
    // without a timeout or a caller's signal, and no listener without the latter. On Node 20
    // AbortSignal.timeout() measured slower than this controller and timer.
    let controller: AbortController | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let onAbort: (() => void) | undefined
    if (timeoutMs > 0 || userSignal !== undefined) {
      const c = new AbortController()
      controller = c
      if (timeoutMs > 0) {
        timer = setTimeout(
          () =>
            c.abort(
              new TimeoutError(`No response within ${timeoutMs} ms: ${method} ${url}`, method, url),
            ),
          timeoutMs,
        )
      }
      if (userSignal !== undefined) {
        const abort = () => c.abort(abortError(method, url, userSignal))
        onAbort = abort
        if (userSignal.aborted) abort()
        userSignal.addEventListener('abort', abort, { once: true })
      }
    }
    try {
      const response = await open(call, url, headers, controller?.signal)
      try {
        return { response, data: (await response.json()) as unknown }
      } catch (error) {
        if (controller?.signal.aborted) throw controller.signal.reason
        throw new ConnectionError(
          `The response was cut off or is not JSON: ${method} ${url}`,
          method,
          url,
          { cause: error },
        )
      }
    } finally {
      if (timer !== undefined) clearTimeout(timer)
      if (onAbort !== undefined) userSignal?.removeEventListener('abort', onAbort)
    }
  }

  /** Sends a call, retrying what is safe to retry, and checks the body when asked to. */
  async function send<T>(call: Call): Promise<{ data: T; response: Response }> {
    const { method, options: opts } = call
    const url = baseUrl + call.path + queryString(call.query)
    // Merged only when needed: by a create without a key, or after a failed attempt.
    const clientRetry = options.retry
    const callRetry = opts?.retry
    let settings: Required<RetryOptions> | undefined
    const headers = headersFor('application/json', opts)
    if (call.body !== undefined) headers['content-type'] = 'application/json'
    let key = opts?.idempotencyKey
    if (key === undefined && method === 'POST') {
      settings = retrySettings(clientRetry, callRetry)
      if (settings.maxRetries > 0) key = newIdempotencyKey()
    }
    if (key !== undefined) headers['idempotency-key'] = key
    // A GET is always safe to repeat; a create only when the server can recognise the repeat.
    const safe = method === 'GET' || key !== undefined
    for (let retry = 0; ; retry++) {
      try {
        const { response, data } = await attempt(call, url, headers)
        return { data: checked<T>(call.schema, data, method, url), response }
      } catch (error) {
        settings ??= retrySettings(clientRetry, callRetry)
        const delay = retryDelay(error, retry, settings, safe, key !== undefined)
        if (delay === undefined) throw error
        await sleep(delay, opts?.signal, () => abortError(method, url, opts?.signal))
      }
    }
  }

  /**
   * The lines of one streamed GET. The caller's signal aborts it; the timeout bounds the
   * silence between two chunks rather than the whole response, which may never end.
   */
  async function* streamLines(call: Call, headers: Record<string, string>) {
    const { method, options: opts } = call
    const url = baseUrl + call.path + queryString(call.query)
    const idleMs = opts?.timeoutMs ?? defaultTimeout
    const userSignal = opts?.signal
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const arm = () => {
      clearTimeout(timer)
      if (idleMs > 0) {
        timer = setTimeout(() => {
          const message = `Nothing received for ${idleMs} ms: ${method} ${url}`
          controller.abort(new TimeoutError(message, method, url))
        }, idleMs)
      }
    }
    const onAbort = () => controller.abort(abortError(method, url, userSignal))
    if (userSignal?.aborted) onAbort()
    userSignal?.addEventListener('abort', onAbort, { once: true })
    try {
      arm()
      for await (const line of lines(await open(call, url, headers, controller.signal), arm)) {
        yield { line, url }
      }
    } catch (error) {
      if (controller.signal.aborted) throw controller.signal.reason
      if (isTasklaneError(error)) throw error
      throw new ConnectionError(`The response was cut off: ${method} ${url}`, method, url, {
        cause: error,
      })
    } finally {
      clearTimeout(timer)
      userSignal?.removeEventListener('abort', onAbort)
      // Stopped early or done: either way the connection is not needed any more.
      controller.abort()
    }
  }

  /** A Task from one line of a stream; a line that is not JSON counts as a cut-off response. */
  function taskOf(text: string, url: string): Task {
    let data: unknown
    try {
      data = JSON.parse(text)
    } catch (error) {
      throw new ConnectionError(`The response is not JSON: GET ${url}`, 'GET', url, {
        cause: error,
      })
    }
    return checked<Task>('Task', data, 'GET', url)
  }

  const listTasks = (limit?: number, call?: ListTasksOptions) =>
    send<Task[]>({
      method: 'GET',
      path: LIST_PATH,
      query: {
        limit,
        after: call?.after,
        before: call?.before,
        order: call?.order,
        tag: call?.tag,
      },
      schema: 'Task[]',
      options: call,
    })

  return {
    listTasks: async (limit, call) => (await listTasks(limit, call)).data,
    createTask: async (task, call) =>
      (
        await send<Task>({
          method: 'POST',
          path: CREATE_PATH,
          body: task,
          schema: 'Task',
          options: call,
        })
      ).data,
    getTask: async (id, call) =>
      (
        await send<Task>({
          method: 'GET',
          path: GET_PATH.replace('{id}', encodeURIComponent(String(id))),
          schema: 'Task',
          options: call,
        })
      ).data,
    async *tasks(call = {}) {
      const pageSize = call.pageSize ?? DEFAULT_PAGE_SIZE
      if (!Number.isInteger(pageSize) || pageSize < 1) {
        throw new RangeError(`pageSize must be a positive integer, got ${pageSize}.`)
      }
      // The cursor that moves: `after` oldest first, `before` newest first.
      const cursor = call.order === 'desc' ? 'before' : 'after'
      let position = call[cursor]
      let linkSeen = false
      for (;;) {
        const { data, response } = await listTasks(pageSize, { ...call, [cursor]: position })
        yield* data
        const next = nextCursor(response.headers.get('link'), cursor)
        linkSeen ||= next !== undefined
        // No Link on a full page: either the end, or a Link the browser may not read (CORS
        // without Access-Control-Expose-Headers). Until a Link has been seen, ask once more.
        const last = data.at(-1)
        if (next !== undefined) position = next
        else if (!linkSeen && last !== undefined && data.length >= pageSize) position = last.id
        else return
      }
    },
    async *exportTasks(call = {}) {
      const cursor = call.order === 'desc' ? 'before' : 'after'
      let position = call[cursor]
      let settings: Required<RetryOptions> | undefined
      for (let retry = 0; ; retry++) {
        try {
          const lines = streamLines(
            {
              method: 'GET',
              path: LIST_PATH,
              query: {
                after: call.after,
                before: call.before,
                [cursor]: position,
                order: call.order,
                tag: call.tag,
              },
              schema: 'Task',
              options: call,
            },
            headersFor('application/x-ndjson', call),
          )
          for await (const { line, url } of lines) {
            if (line === '') continue
            const task = taskOf(line, url)
            position = task.id
            // Consecutive failures count: a download that moves on may fail again later.
            retry = 0
            yield task
          }
          return
        } catch (error) {
          settings ??= retrySettings(options.retry, call.retry)
          const delay = retryDelay(error, retry, settings, true, false)
          if (delay === undefined) throw error
          await sleep(delay, call.signal, () => abortError('GET', baseUrl + LIST_PATH, call.signal))
        }
      }
    },
    async *watch(call = {}) {
      const { signal, tag } = call
      const settings = retrySettings(options.retry, call.retry)
      // Reconnects until the signal aborts; the backoff is the retries' own.
      const forever = { ...settings, maxRetries: Number.POSITIVE_INFINITY }
      let last = call.after
      let failures = 0
      for (;;) {
        let failure: unknown
        try {
          // Without `after`, from the newest task now, so that a reconnection before the
          // first event still knows where to resume.
          last ??=
            (await listTasks(1, { ...call, tag: undefined, after: undefined, order: 'desc' }))
              .data[0]?.id ?? 0
          const headers = headersFor('text/event-stream', call)
          headers['last-event-id'] = String(last)
          let event = ''
          let data = ''
          const lines = streamLines(
            {
              method: 'GET',
              path: WATCH_PATH,
              query: { after: last, tag },
              schema: 'Task',
              options: call,
            },
            headers,
          )
          for await (const { line, url } of lines) {
            failures = 0
            // Server-Sent Events: fields until a blank line; `:` starts a comment.
            const colon = line.indexOf(':')
            const field = colon === -1 ? line : line.slice(0, colon)
            const value = colon === -1 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1))
            if (field === 'event') event = value
            else if (field === 'data') data = data === '' ? value : `${data}\n${value}`
            else if (line === '') {
              if (event === 'task' && data !== '') {
                const task = taskOf(data, url)
                // Never twice, whatever a server or proxy replays.
                if (task.id > last) {
                  last = task.id
                  yield task
                }
              }
              event = data = ''
            }
          }
        } catch (error) {
          failure = error
        }
        if (signal?.aborted) return
        if (settings.maxRetries === 0) {
          if (failure === undefined) return
          throw failure
        }
        // The stream ended (the server restarts, say) or failed: open it again, later and
        // later while it keeps failing; the jitter spreads the clients of one server.
        const delay =
          failure === undefined
            ? settings.initialDelayMs * Math.random()
            : retryDelay(failure, failures++, forever, true, false)
        if (delay === undefined) throw failure
        try {
          await sleep(delay, signal, () => new Error('aborted'))
        } catch {
          return
        }
      }
    },
  }
}

function abortError(method: string, url: string, signal: AbortSignal | undefined): AbortError {
  return new AbortError(`Request aborted: ${method} ${url}`, method, url, {
    cause: signal?.reason,
  })
}

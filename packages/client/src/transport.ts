import type { routes } from '@tasklane/contract'
import { abortError } from './errors/abort-error.js'
import { ConnectionError } from './errors/connection-error.js'
import { ResponseTooLargeError } from './errors/response-too-large-error.js'
import { isTasklaneError } from './errors/tasklane-error.js'
import { TimeoutError } from './errors/timeout-error.js'
import { ValidationError } from './errors/validation-error.js'
import type { ClientOptions, RequestOptions } from './options.js'
import { readApiError } from './read-api-error.js'
import type { SchemaName } from './response-validator.js'
import { type RetryOptions, retryDelay, retrySettings } from './retry.js'
import { checkHeaders } from './utils/check-headers.js'
import { isNetworkError } from './utils/is-network-error.js'
import { queryString } from './utils/query-string.js'
import { readChunks } from './utils/read-chunks.js'
import { sleep } from './utils/sleep.js'
import { watchdog } from './utils/watchdog.js'

/** The default of `timeoutMs`. */
export const DEFAULT_TIMEOUT_MS = 30_000

/** One HTTP request as the transport sends it. */
export interface TransportRequest {
  /** A method of the contract's routes. */
  method: (typeof routes)[keyof typeof routes]['method']
  /** The path below `baseUrl`, e.g. `/tasks/7`. */
  path: string
  /** Query parameters; undefined ones are left out. */
  query?: Record<string, string | number | undefined>
  /** Sent as JSON. */
  body?: unknown
  /** The Accept header; default `application/json`. */
  accept?: string
  /** This request's own headers, over the client's and the call's (`Last-Event-ID`, `If-Match`). */
  headers?: Record<string, string>
  /** Sent as `Idempotency-Key`; it makes a POST safe to retry. */
  idempotencyKey?: string | undefined
  /** The caller's options of this call. */
  options?: RequestOptions | undefined
}

/** A request whose 2xx response is one JSON body, or none (204, 304). */
export interface JsonRequest extends TransportRequest {
  /** The contract schema the body must match, checked by the `validate` option; none for a 204. */
  schema?: SchemaName
}

/** A 2xx or 304 response, its body read: the parsed body and the headers (`Link`, `ETag`, ...). */
export interface JsonResponse<T> {
  /** The parsed body, checked by `validate` when the client has one; undefined for a 204 or 304. */
  data: T
  /** The response, its body consumed: its status and headers. */
  response: Response
}

/**
 * Sends the client's HTTP requests: builds the URL and headers (the token asked for each
 * attempt), bounds each attempt by `timeoutMs` and the caller's signal, tells a network
 * failure (ConnectionError) from a usage error (TypeError), turns a non-2xx status into an
 * ApiError, checks bodies with the `validate` hook, and retries what is safe to retry.
 */
export class Transport {
  /** `baseUrl` without its trailing slashes. */
  readonly baseUrl: string

  constructor(readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '')
  }

  /** The full URL of `path` with `query`. */
  url(path: string, query?: TransportRequest['query']): string {
    return this.baseUrl + path + queryString(query)
  }

  /** The retry settings of a call: the client's, overridden by the call's own. */
  retrySettings(call: RetryOptions | false | undefined): Required<RetryOptions> {
    return retrySettings(this.options.retry, call)
  }

  /** The call's timeout, or else the client's, or else the default. */
  #timeoutMs(options: RequestOptions | undefined): number {
    return options?.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  }

  /** Sends `request`, retrying what is safe to retry; resolves with the parsed 2xx body. */
  async send<T>(request: JsonRequest): Promise<JsonResponse<T>> {
    const { method, options, idempotencyKey } = request
    const url = this.url(request.path, request.query)
    // Merged only after a failure: most calls never need them.
    let settings: Required<RetryOptions> | undefined
    for (let retries = 0; ; retries++) {
      try {
        const { response, data } = await this.#attempt(request, url)
        return { data: this.checked<T>(request.schema, data, method, url), response }
      } catch (error) {
        settings ??= this.retrySettings(options?.retry)
        const delay = retryDelay(error, {
          retries,
          settings,
          // A GET is always safe to repeat; a create only when the server can tell a repeat.
          repeatable: method === 'GET' || idempotencyKey !== undefined,
          idempotencyKey: idempotencyKey !== undefined,
        })
        if (delay === undefined) throw error
        await sleep(delay, options?.signal, () => abortError(method, url, options?.signal))
      }
    }
  }

  /**
   * One streamed GET, its body run through `parse` (NDJSON records, SSE events). The
   * caller's signal aborts it; `timeoutMs` bounds the silence between two chunks rather
   * than the whole response, which may never end. Not retried: a stream resumes from where
   * its reader got to, which only the caller knows.
   */
  async *stream<T>(
    request: TransportRequest,
    parse: (chunks: AsyncIterable<Uint8Array>) => AsyncIterable<T>,
  ): AsyncGenerator<T, void, undefined> {
    const { method, options } = request
    const url = this.url(request.path, request.query)
    const dog = this.#watchdog(method, url, options, 'Nothing received for')
    try {
      const response = await this.#open(request, url, dog.signal)
      try {
        yield* parse(readChunks(response.body, dog.restart))
      } catch (error) {
        if (dog.signal.aborted) throw dog.signal.reason
        if (isTasklaneError(error)) throw error
        // The parsers' way to say that a line is over their limit.
        if (error instanceof RangeError) {
          throw new ResponseTooLargeError(`${error.message}: ${method} ${url}`, method, url)
        }
        throw new ConnectionError(`The response was cut off: ${method} ${url}`, method, url, {
          cause: error,
        })
      }
    } finally {
      dog.dispose()
      // Stopped early or done: either way the connection is not needed any more.
      dog.abort()
    }
  }

  /** `data` as the contract's `schema` when the client checks responses; else as is. */
  checked<T>(schema: SchemaName | undefined, data: unknown, method: string, url: string): T {
    // A 204 or 304 has no body to check.
    const issue =
      schema === undefined || data === undefined ? undefined : this.options.validate?.(schema, data)
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

  /** One record of a stream, parsed and checked; one that is not JSON is a cut-off response. */
  record<T>(text: string, schema: SchemaName | undefined, url: string): T {
    let data: unknown
    try {
      data = JSON.parse(text)
    } catch (error) {
      throw new ConnectionError(`The response is not JSON: GET ${url}`, 'GET', url, {
        cause: error,
      })
    }
    return this.checked<T>(schema, data, 'GET', url)
  }

  /** One attempt: a 2xx response and its parsed body, or a thrown error. */
  async #attempt(request: JsonRequest, url: string) {
    const { method, options } = request
    // A signal is the dearest part of a call: creating it, plus what Node's fetch does with
    // one (a listener, a WeakRef, a finalizer), is about 4 % of a local GET. So none is made
    // without a timeout or a caller's signal.
    const dog =
      this.#timeoutMs(options) > 0 || options?.signal !== undefined
        ? this.#watchdog(method, url, options, 'No response within')
        : undefined
    try {
      const response = await this.#open(request, url, dog?.signal)
      try {
        const { status } = response
        return {
          response,
          data: (status === 204 || status === 304 ? undefined : await response.json()) as unknown,
        }
      } catch (error) {
        if (dog?.signal.aborted) throw dog.signal.reason
        throw new ConnectionError(
          `The response was cut off or is not JSON: ${method} ${url}`,
          method,
          url,
          { cause: error },
        )
      }
    } finally {
      dog?.dispose()
    }
  }

  #watchdog(method: string, url: string, options: RequestOptions | undefined, timedOut: string) {
    const timeoutMs = this.#timeoutMs(options)
    return watchdog(
      timeoutMs,
      options?.signal,
      () => new TimeoutError(`${timedOut} ${timeoutMs} ms: ${method} ${url}`, method, url),
      () => abortError(method, url, options?.signal),
    )
  }

  /**
   * Sends the request; resolves with a 2xx (or 304) response whose body is not read yet. A
   * token function is asked once more after a 401 and the request sent again with its answer
   * (the token it gave may have expired meanwhile); a 401 means the server did nothing, so
   * this is safe for any request, even one never retried otherwise.
   */
  async #open(
    request: TransportRequest,
    url: string,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    const { token } = this.options
    for (let asked = 0; ; asked++) {
      const response = await this.#fetch(request, url, signal)
      if (response.status === 401 && typeof token === 'function' && asked === 0) {
        await response.body?.cancel().catch(() => {})
        continue
      }
      // A 304 answers a GET with If-None-Match: the caller's copy is current.
      if (!response.ok && response.status !== 304) {
        throw await readApiError(response, request.method, url)
      }
      return response
    }
  }

  /** One fetch of the request, its headers built now (the token asked for now). */
  async #fetch(
    request: TransportRequest,
    url: string,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    const { method, body, options, idempotencyKey } = request
    const { token } = this.options
    const headers: Record<string, string> = {
      accept: request.accept ?? 'application/json',
      ...this.options.headers,
      ...options?.headers,
      ...request.headers,
    }
    if (body !== undefined) {
      headers['content-type'] = `application/${method === 'PATCH' ? 'merge-patch+' : ''}json`
    }
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey
    if (token !== undefined) {
      headers.authorization = `Bearer ${typeof token === 'function' ? await token() : token}`
    }
    // Before fetch, which would refuse some bad values without naming the header and send
    // others garbled: a usage error, thrown as a TypeError and never retried.
    checkHeaders(headers)
    const fetch = this.options.fetch ?? globalThis.fetch
    try {
      return await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      })
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      if (!isNetworkError(error)) throw error
      throw new ConnectionError(`Could not reach the server: ${method} ${url}`, method, url, {
        cause: error,
      })
    }
  }
}

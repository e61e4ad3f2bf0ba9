import autocannon from 'autocannon'
import { percentile, sorted } from './stats.js'

/** One request of a load's cycle: each connection sends these in order, round and round. */
export interface LoadRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  path: string
  body?: string
  /**
   * Called for each request sent: what it is this time (a new id, a new name; now and
   * then another method), over the fields above.
   */
  vary?: () => {
    method?: LoadRequest['method']
    path: string
    body?: string | undefined
    headers?: Record<string, string>
  }
}

/** What one autocannon run measured: successful requests per second and their latency. */
export interface LoadResult {
  rps: number
  /** Milliseconds, from every 2xx response's own timing (autocannon's histogram rounds to 1 ms). */
  p50: number
  p99: number
  ok: number
  /** Responses other than 2xx, and connection errors or timeouts. */
  failed: number
}

const JSON_HEADERS = { 'content-type': 'application/json' }

/**
 * Loads `url` with `connections` keep-alive connections for `seconds`, cycling through
 * `requests`, each with `headers` too (a credential). Bounded: autocannon stops at the duration and times out each request after 10 s.
 */
export async function load(
  url: string,
  requests: readonly LoadRequest[],
  {
    connections,
    seconds,
    headers = {},
  }: { connections: number; seconds: number; headers?: Record<string, string> | undefined },
): Promise<LoadResult> {
  const latencies: number[] = []
  let failed = 0
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        timeout: 10,
        requests: requests.map((request) => {
          const { vary } = request
          return {
            method: request.method,
            path: request.path,
            headers: request.body === undefined ? headers : { ...JSON_HEADERS, ...headers },
            ...(request.body === undefined ? {} : { body: request.body }),
            // autocannon calls setupRequest before each request it sends with this entry.
            ...(vary === undefined
              ? {}
              : { setupRequest: (sent: object) => ({ ...sent, ...vary() }) }),
          }
        }),
      },
      (error, value) => (error ? reject(error) : resolve(value)),
    )
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) latencies.push(responseTime)
      else failed++
    })
  })
  const ordered = sorted(latencies)
  return {
    rps: ordered.length / result.duration,
    p50: percentile(ordered, 50),
    p99: percentile(ordered, 99),
    ok: ordered.length,
    failed: failed + result.errors,
  }
}

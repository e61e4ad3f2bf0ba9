import type { Metric } from 'prom-client'

/** The latency histogram's upper bounds, in seconds. */
export const LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
]

/**
 * One route template's requests: counts by method and status (those whose client left
 * before the response was written whole apart), and its latency histogram.
 */
interface RouteStats {
  readonly byMethod: Map<string, Map<number, number>>
  readonly abortedByMethod: Map<string, Map<number, number>>
  /** Requests per bucket (not cumulative); the last one is +Inf. */
  readonly buckets: Float64Array
  sum: number
  count: number
}

/** One sample as prom-client's registry formats it. */
interface Sample {
  readonly labels: Record<string, string | number>
  readonly value: number
  readonly metricName: string
}

/**
 * Requests answered, by route template, method and status, and their latency by route
 * template, recorded without allocating: a request's end is two map lookups and a few
 * additions. prom-client's own Counter and Histogram build and hash a labels object on
 * every call, which was one of the larger per-request costs in the bench's ablation.
 * The figures reach prom-client only when /metrics is scraped (`forEachCount`,
 * `latencyMetric`), in the same text format as its Histogram's.
 */
export class RequestStats {
  readonly #routes = new Map<string, RouteStats>()

  record(route: string, method: string, status: number, seconds: number, aborted = false): void {
    let stats = this.#routes.get(route)
    if (stats === undefined) {
      stats = {
        byMethod: new Map(),
        abortedByMethod: new Map(),
        buckets: new Float64Array(LATENCY_BUCKETS.length + 1),
        sum: 0,
        count: 0,
      }
      this.#routes.set(route, stats)
    }
    const counts = aborted ? stats.abortedByMethod : stats.byMethod
    let byStatus = counts.get(method)
    if (byStatus === undefined) {
      byStatus = new Map()
      counts.set(method, byStatus)
    }
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
    let bucket = 0
    while (bucket < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[bucket] as number))
      bucket++
    stats.buckets[bucket] = (stats.buckets[bucket] as number) + 1
    stats.sum += seconds
    stats.count++
  }

  /** Each (method, route, status, aborted) recorded so far, with its count. */
  forEachCount(
    each: (method: string, route: string, status: number, count: number, aborted: boolean) => void,
  ): void {
    for (const [route, stats] of this.#routes) {
      for (const [aborted, counts] of [
        [false, stats.byMethod],
        [true, stats.abortedByMethod],
      ] as const) {
        for (const [method, byStatus] of counts) {
          for (const [status, count] of byStatus) each(method, route, status, count, aborted)
        }
      }
    }
  }

  /**
   * The latency histogram as a metric prom-client's registry can hold: cumulative
   * `_bucket` samples with `le` and `route`, then `_sum` and `_count`, per route.
   */
  latencyMetric(name: string, help: string): Metric {
    const routes = this.#routes
    const get = () => {
      const values: Sample[] = []
      for (const [route, stats] of routes) {
        let cumulative = 0
        for (const [i, le] of LATENCY_BUCKETS.entries()) {
          cumulative += stats.buckets[i] as number
          values.push({ labels: { le, route }, value: cumulative, metricName: `${name}_bucket` })
        }
        values.push(
          { labels: { le: '+Inf', route }, value: stats.count, metricName: `${name}_bucket` },
          { labels: { route }, value: stats.sum, metricName: `${name}_sum` },
          { labels: { route }, value: stats.count, metricName: `${name}_count` },
        )
      }
      return { name, help, type: 'histogram', values, aggregator: 'sum' }
    }
    return {
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      get: async () => get(),
      reset: () => routes.clear(),
    } as unknown as Metric
  }
}

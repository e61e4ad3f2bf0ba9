import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { LATENCY_BUCKETS, RequestStats } from '../src/plugins/request-stats.js'

/** The text a registry holding only this histogram prints. */
async function exposition(stats: RequestStats): Promise<string> {
  const registry = new Registry()
  registry.registerMetric(stats.latencyMetric('latency_seconds', 'Latency.'))
  return registry.metrics()
}

describe('RequestStats', () => {
  it('counts each method, route and status apart', () => {
    const stats = new RequestStats()
    stats.record('/tasks', 'GET', 200, 0.001)
    stats.record('/tasks', 'GET', 200, 0.002)
    stats.record('/tasks', 'GET', 400, 0.002)
    stats.record('/task', 'POST', 201, 0.003)
    const counts: [string, string, number, number][] = []
    stats.forEachCount((method, route, status, count) =>
      counts.push([method, route, status, count]),
    )
    expect(counts).toEqual([
      ['GET', '/tasks', 200, 2],
      ['GET', '/tasks', 400, 1],
      ['POST', '/task', 201, 1],
    ])
  })

  it('prints a Prometheus histogram: cumulative buckets, an upper bound included in its bucket', async () => {
    const stats = new RequestStats()
    // On a bound (le is "less than or equal"), between two, and past the last.
    for (const seconds of [0.001, 0.003, 0.003, 60]) stats.record('/tasks', 'GET', 200, seconds)
    const text = await exposition(stats)
    expect(text).toContain('# TYPE latency_seconds histogram')
    expect(text).toContain('latency_seconds_bucket{le="0.001",route="/tasks"} 1')
    expect(text).toContain('latency_seconds_bucket{le="0.0025",route="/tasks"} 1')
    expect(text).toContain('latency_seconds_bucket{le="0.005",route="/tasks"} 3')
    expect(text).toContain(
      `latency_seconds_bucket{le="${LATENCY_BUCKETS.at(-1)}",route="/tasks"} 3`,
    )
    expect(text).toContain('latency_seconds_bucket{le="+Inf",route="/tasks"} 4')
    expect(text).toContain('latency_seconds_sum{route="/tasks"} 60.007')
    expect(text).toContain('latency_seconds_count{route="/tasks"} 4')
  })

  it('starts over when the registry is reset', async () => {
    const stats = new RequestStats()
    stats.record('/tasks', 'GET', 200, 0.001)
    const registry = new Registry()
    registry.registerMetric(stats.latencyMetric('latency_seconds', 'Latency.'))
    registry.resetMetrics()
    expect(await registry.metrics()).not.toContain('route="/tasks"')
  })
})

import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { RequestEnds } from '../http/request-ends.js'
import { MAX_QUEUE, type WriterObserver } from '../tasks/task-writer.js'
import { RequestStats } from './request-stats.js'

/** The route label of requests that matched no route (404, 405): one label, never the URL. */
const UNMATCHED_ROUTE = 'unmatched'

/** Where Prometheus scrapes. */
const METRICS_PATH = '/metrics'

/**
 * What the rest of the server reports to the metrics, as `app.metrics`: the group-commit
 * writer's commits and queue, and the change feed's subscriber count.
 */
export interface ServerMetrics {
  readonly writer: Required<WriterObserver>
  readonly feed: {
    /** The change feed's open subscriptions, each time that number changes. */
    onSubscribers(count: number): void
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ServerMetrics
  }
}

/**
 * `GET /metrics` in the Prometheus text format: requests by method, route template and
 * status, their latency by route, created, changed and deleted tasks, group commits (latency, batch size), the
 * write queue, feed subscribers, and the default Node.js process metrics. Each app has a
 * registry of its own. Auth and rate limiting apply as to any API route.
 */
export default fp(
  async function metrics(app: FastifyInstance) {
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })
    // Gauges named like counters, which `promtool check metrics` rejects; each is the sum
    // of the by-type gauge of the same name without `_total`, which stays.
    for (const name of ['handles', 'requests', 'resources']) {
      registry.removeSingleMetric(`nodejs_active_${name}_total`)
    }
    const registers = [registry]

    const answered = new RequestStats()
    new Counter({
      name: 'tasklane_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status; aborted="true": the client closed the connection before the response was written whole (status: the one it had or would have had).',
      labelNames: ['method', 'route', 'status', 'aborted'] as const,
      registers,
      // Counted in plain numbers as requests end; handed to prom-client when scraped.
      collect() {
        this.reset()
        answered.forEachCount((method, route, status, count, aborted) =>
          this.inc(
            aborted ? { method, route, status, aborted: 'true' } : { method, route, status },
            count,
          ),
        )
      },
    })
    registry.registerMetric(
      answered.latencyMetric(
        'tasklane_http_request_duration_seconds',
        'Time from receiving a request to the end of its response, by route template.',
      ),
    )
    const created = new Counter({
      name: 'tasklane_tasks_created_total',
      help: 'Tasks created (replays of an Idempotency-Key are not counted).',
      registers,
    })
    const updated = new Counter({
      name: 'tasklane_tasks_updated_total',
      help: 'Tasks changed by PATCH (replays and patches that change nothing are not counted).',
      registers,
    })
    const deleted = new Counter({
      name: 'tasklane_tasks_deleted_total',
      help: 'Tasks deleted (replays of an Idempotency-Key are not counted).',
      registers,
    })
    const commitSeconds = new Histogram({
      name: 'tasklane_commit_duration_seconds',
      help: 'Time to commit one batch of writes (one transaction, one fsync).',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    })
    const batchSize = new Histogram({
      name: 'tasklane_commit_batch_size',
      help: 'Writes (creates, changes, deletes) committed together in one transaction (group commit).',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
      registers,
    })
    const queueDepth = new Gauge({
      name: 'tasklane_write_queue_depth',
      help: `Writes waiting for a commit; past ${MAX_QUEUE} writes are refused with 503.`,
      registers,
    })
    const subscribers = new Gauge({
      name: 'tasklane_event_subscribers',
      help: 'Open subscriptions to the change feed (GET /tasks/events).',
      registers,
    })

    app.decorate('metrics', {
      writer: {
        onCommit(commit) {
          commitSeconds.observe(commit.seconds)
          batchSize.observe(commit.size)
          created.inc(commit.created)
          updated.inc(commit.updated)
          deleted.inc(commit.deleted)
        },
        onQueueDepth: (depth) => queueDepth.set(depth),
      },
      feed: { onSubscribers: (count) => subscribers.set(count) },
    } satisfies ServerMetrics)

    RequestEnds.of(app).add((request, reply, aborted) => {
      answered.record(
        request.routeOptions.url ?? UNMATCHED_ROUTE,
        request.method,
        reply.statusCode,
        reply.elapsedTime / 1000,
        aborted,
      )
    })

    app.get(METRICS_PATH, { schema: { hide: true } }, async (_request, reply) => {
      reply.type(registry.contentType)
      return registry.metrics()
    })
  },
  { name: 'metrics' },
)

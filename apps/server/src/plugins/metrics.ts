import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { RequestEnds } from '../http/request-ends.js'
import type { WebhookBacklog, WebhookStorage } from '../storage/open-storage.js'
import { MAX_QUEUE, type WriterObserver } from '../tasks/task-writer.js'
import type { DeliveryOutcome } from '../webhooks/deliverer.js'
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
  readonly webhooks: {
    /** How one webhook delivery attempt ended. */
    onDelivery(outcome: DeliveryOutcome): void
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
  async function metrics(
    app: FastifyInstance,
    { storage }: { storage: { readonly webhooks: Pick<WebhookStorage, 'backlog'> } },
  ) {
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

    const deliveries = new Counter({
      name: 'tasklane_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome: acknowledged (2xx), failed (retried after a backoff), gone (410: the webhook disabled).',
      labelNames: ['outcome'] as const,
      registers,
    })
    for (const outcome of ['acknowledged', 'failed', 'gone'] as const)
      deliveries.inc({ outcome }, 0)
    // The three gauges read the database once per scrape, together; when it cannot be read,
    // they keep their last values and the rest of the scrape is answered.
    let backlog: Promise<WebhookBacklog | undefined> | undefined
    const readBacklog = () => {
      backlog ??= storage.webhooks
        .backlog()
        .catch(() => undefined)
        .finally(() => {
          setImmediate(() => {
            backlog = undefined
          })
        })
      return backlog
    }
    new Gauge({
      name: 'tasklane_webhook_lag_seqs',
      help: "The largest gap between the newest seq and an enabled webhook's cursor: changes the furthest-behind webhook has yet to deliver (or skip).",
      registers,
      async collect() {
        const read = await readBacklog()
        if (read !== undefined) this.set(read.maxLag)
      },
    })
    new Gauge({
      name: 'tasklane_webhooks_behind',
      help: 'Enabled webhooks whose cursor is behind the newest seq.',
      registers,
      async collect() {
        const read = await readBacklog()
        if (read !== undefined) this.set(read.behind)
      },
    })
    new Gauge({
      name: 'tasklane_webhook_retrying',
      help: 'Enabled webhooks whose last delivery attempt failed: in a backoff, retrying the same change.',
      registers,
      async collect() {
        const read = await readBacklog()
        if (read !== undefined) this.set(read.retrying)
      },
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
      webhooks: { onDelivery: (outcome) => deliveries.inc({ outcome }) },
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

import { register } from 'node:module'
import FastifyOtelInstrumentation from '@fastify/otel'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg'
import { NodeSDK, resources } from '@opentelemetry/sdk-node'
import { createAddHookMessageChannel } from 'import-in-the-middle'

/** Requests that are not worth a trace: probes and scrapes, which arrive every few seconds. */
const UNTRACED = /^\/(health([/?]|$)|metrics(\?|$))/

/**
 * Starts OpenTelemetry tracing: spans of incoming HTTP requests (continuing an incoming W3C
 * `traceparent`), of Fastify's routes and hooks, and of PostgreSQL queries, exported over
 * OTLP. main.ts imports this module, and calls this, only when an endpoint is configured,
 * and before it imports the app: instrumentations patch http, fastify and pg as they load,
 * and an ES module import is only seen through the loader hook registered here.
 *
 * The SDK reads its configuration from the standard OTEL_* variables (service name,
 * protocol, headers, sampler, ...); the endpoint, which may also come as a flag, joins them.
 */
export async function startTracing(
  endpoint: string,
  version: string,
): Promise<{ stop(): Promise<void> }> {
  // The loader hook wraps only the modules an instrumentation asked for: wrapping every
  // module, its default, halved the requests a second the server answers with tracing on.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel()
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions)
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint
  const sdk = new NodeSDK({
    // Defaults that OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override.
    resource: resources.resourceFromAttributes({
      'service.name': 'tasklane',
      'service.version': version,
    }),
    // Traces only: metrics are Prometheus's (GET /metrics), logs are stdout's.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED.test(request.url ?? ''),
      }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: ({ url }) => UNTRACED.test(url),
        // A request and a handler span per request; a span per hook (a dozen of them, each
        // a few microseconds) cost more than they tell.
        instrumentHooks: false,
      }),
      new PgInstrumentation(),
    ],
  })
  sdk.start()
  await waitForAllMessagesAcknowledged()
  return {
    // Sends the spans still buffered, for at most a second: an unreachable collector must
    // not hold up the exit (the SDK's own export timeout is 10 s).
    stop: () =>
      Promise.race([
        sdk.shutdown().catch(() => {}),
        new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref()),
      ]),
  }
}

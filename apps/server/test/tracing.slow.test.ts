import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get } from './support/http.js'
import { killAll, type ServerProcess, startServerProcess, within } from './support/processes.js'
import {
  createTestDatabase,
  onPostgres,
  type TestDatabase,
  throughPooler,
} from './support/test-database.js'

/** A span as the OTLP/JSON export carries it, with the names of its scope and service. */
interface ExportedSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  scope: string
  service: string
}

const SPAN_KIND_SERVER = 2

interface OtlpExport {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] }
    scopeSpans: { scope: { name: string }; spans: Omit<ExportedSpan, 'scope' | 'service'>[] }[]
  }[]
}

/** An OTLP/HTTP receiver (JSON encoding) that keeps every span exported to it. */
function startReceiver(): Promise<{ server: Server; url: string; spans: ExportedSpan[] }> {
  const spans: ExportedSpan[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport
        for (const { resource, scopeSpans } of body.resourceSpans) {
          const service = resource.attributes.find((a) => a.key === 'service.name')?.value
          for (const { scope, spans: each } of scopeSpans) {
            for (const span of each) {
              spans.push({ ...span, scope: scope.name, service: service?.stringValue ?? '' })
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({ server, url: `http://127.0.0.1:${port}`, spans })
    })
  })
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex')

describe('OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let testDatabase: TestDatabase
  let server: ServerProcess

  /** Waits until the spans of `traceId` satisfy `done`, and returns them. */
  async function trace(traceId: string, done: (spans: ExportedSpan[]) => boolean) {
    const spans = () => receiver.spans.filter((span) => span.traceId === traceId)
    const poll = async () => {
      while (!done(spans())) await new Promise((resolve) => setTimeout(resolve, 50))
      return spans()
    }
    return within(poll(), 15_000, `the spans of trace ${traceId}`).catch((error: Error) => {
      throw new Error(`${error.message}; got ${JSON.stringify(spans(), null, 1)}`)
    })
  }

  // Starts a process with the OpenTelemetry SDK: seconds on a loaded machine.
  beforeAll(async () => {
    receiver = await startReceiver()
    testDatabase = await createTestDatabase()
    server = await startServerProcess({
      DATABASE_URL: testDatabase.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Standard variables the SDK reads itself: JSON, which this receiver decodes, and
      // batches sent every 100 ms rather than every 5 s.
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'tasklane-under-test',
    })
  }, 30_000)

  afterAll(async () => {
    await killAll()
    receiver?.server.close()
    await testDatabase?.drop()
  })

  it('continues the traceparent of a POST /task: same trace id, the caller span as parent', async () => {
    const traceId = hex(16)
    const callerSpanId = hex(8)
    const response = await fetch(`${server.url}/task`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      },
      body: JSON.stringify({ name: 'traced' }),
    })
    expect(response.status).toBe(201)

    // Spans are exported as they end, in batches: wait for the last two to end, Fastify's
    // request span (after the handler and its queries) and the server span (after the response).
    const spans = await trace(
      traceId,
      (all) =>
        all.some((span) => span.scope === '@fastify/otel' && span.name === 'request') &&
        all.some((span) => span.parentSpanId === callerSpanId),
    )
    const root = spans.find((span) => span.parentSpanId === callerSpanId)
    expect(root).toMatchObject({
      kind: SPAN_KIND_SERVER,
      scope: '@opentelemetry/instrumentation-http',
      service: 'tasklane-under-test',
    })
    // Every other span of the request descends from it.
    const ids = new Set(spans.map((span) => span.spanId))
    for (const span of spans) {
      if (span !== root) expect(ids).toContain(span.parentSpanId)
    }
    expect(spans.filter((span) => span.scope === '@fastify/otel').map((s) => s.name)).toContain(
      'request',
    )
    // The create's commit ran in the request's context: its statement is in the trace
    // (through a pooler, unnamed: the span is named by its command).
    if (onPostgres) {
      const write = throughPooler ? /^pg\.query:SELECT/ : /^pg\.query:tasklane_write /
      expect(spans.map((span) => span.name)).toEqual(
        expect.arrayContaining([expect.stringMatching(write)]),
      )
    }
  })

  it('leaves probes and scrapes (/health/*, /metrics) out', async () => {
    const probe = hex(16)
    for (const path of ['/health/live', '/health/ready', '/metrics']) {
      const response = await get(server, path, {
        headers: { traceparent: `00-${probe}-${hex(8)}-01` },
      })
      expect(response.status).toBe(200)
    }
    // A traced request after them: once its spans are in, theirs would have been too.
    const after = hex(16)
    await get(server, '/tasks?limit=1', { headers: { traceparent: `00-${after}-${hex(8)}-01` } })
    await trace(after, (all) => all.some((span) => span.kind === SPAN_KIND_SERVER))
    expect(receiver.spans.filter((span) => span.traceId === probe)).toEqual([])
  })

  it('starts a new trace for a request without traceparent', async () => {
    const response = await get(server, '/tasks/999')
    expect(response.status).toBe(404)
    const roots = () =>
      receiver.spans.filter(
        (span) =>
          span.kind === SPAN_KIND_SERVER && span.name === 'GET /tasks/:id' && !span.parentSpanId,
      )
    await within(
      (async () => {
        while (roots().length === 0) await new Promise((resolve) => setTimeout(resolve, 50))
      })(),
      15_000,
      'a root server span',
    )
    expect(roots()[0]?.traceId).toMatch(/^[0-9a-f]{32}$/)
  })

  it.runIf(onPostgres)('traces the PostgreSQL queries of a request inside its trace', async () => {
    const traceId = hex(16)
    const response = await get(server, '/tasks/1', {
      headers: { traceparent: `00-${traceId}-${hex(8)}-01` },
    })
    expect(response.status).toBe(200)
    const spans = await trace(traceId, (all) =>
      all.some((span) => span.scope === '@opentelemetry/instrumentation-pg'),
    )
    expect(spans.find((span) => span.scope === '@opentelemetry/instrumentation-pg')).toMatchObject({
      kind: 3, // client
    })
  })

  it('sends the spans still buffered when it stops on SIGTERM, and exits 0', async () => {
    const traceId = hex(16)
    const response = await get(server, '/tasks?limit=1', {
      headers: { traceparent: `00-${traceId}-${hex(8)}-01` },
    })
    expect(response.status).toBe(200)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
    await trace(traceId, (all) => all.some((span) => span.kind === SPAN_KIND_SERVER))
  })
})

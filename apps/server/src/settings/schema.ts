// Every setting of the server as one TypeBox schema, the only place a default is written.
import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { STORAGE_DESCRIPTORS_TEXT } from '../storage/descriptors.js'
import { authSettings } from './auth-settings.js'
import { databaseSettings, MAX_TIMER_MS } from './database-settings.js'
import { RESERVED_DESCRIPTORS } from './descriptor-limit.js'
import './formats.js'
import { type Source, setting } from './setting.js'
import { webhookSettings } from './webhook-settings.js'

export type { Source } from './setting.js'

import { BUFFERED_PAGE_MAX } from '../tasks/listing.js'

export { DEFAULT_DATABASE_FILE, MAX_TIMER_MS } from './database-settings.js'

/** Log levels, quietest last. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** How log lines are written: decided by the terminal, JSON, or readable. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const

/**
 * Every setting of the server, its type, range, default and meaning: the one place they
 * are defined. The environment and the flags are read onto it, `--help` is generated
 * from it, and docs/operations.md's table says the same.
 */
export const SettingsSchema = Type.Object({
  port: setting(
    Type.Integer({
      minimum: 0,
      maximum: 65_535,
      default: 3000,
      description: 'TCP port to listen on (0 picks a free one).',
    }),
    { env: 'PORT' },
  ),
  host: setting(
    Type.String({
      minLength: 1,
      default: '127.0.0.1',
      description: 'Address to bind; 0.0.0.0 for every interface.',
    }),
    { env: 'HOST', expected: 'an address to bind' },
  ),
  ...databaseSettings,
  readyTimeoutMs: setting(
    Type.Integer({
      minimum: 1,
      maximum: MAX_TIMER_MS,
      default: 1000,
      description:
        'Longest /health/ready waits (ms) for the database to answer a read and commit a probe write; past it, 503.',
    }),
    { env: 'READY_TIMEOUT_MS' },
  ),
  logLevel: setting(
    Type.Union(
      LOG_LEVELS.map((level) => Type.Literal(level)),
      {
        default: 'info',
        description: 'Least severe log level written; one line per request.',
      },
    ),
    { env: 'LOG_LEVEL' },
  ),
  logFormat: setting(
    Type.Union(
      LOG_FORMATS.map((format) => Type.Literal(format)),
      {
        default: 'auto',
        description:
          'How log lines are written: json (one JSON object a line, for a log collector), pretty (readable lines), or auto: pretty when standard output is a terminal, json otherwise.',
      },
    ),
    { env: 'LOG_FORMAT' },
  ),
  corsOrigins: setting(
    Type.Array(Type.String({ format: 'origin' }), {
      default: [],
      description:
        'Comma-separated origins browsers may call from (https://app.example.com), or *. Empty: CORS is off.',
    }),
    { env: 'CORS_ORIGINS', expected: 'an origin such as https://app.example.com' },
  ),
  apiToken: setting(
    Type.Optional(
      Type.String({
        pattern: '^[\\x21-\\x7E]+$',
        description:
          'When set, every API route requires Authorization: Bearer <token>; public without it: the web page (/ and /assets/*), /health/*, /openapi.json, /docs and OPTIONS (CORS preflight) requests.',
      }),
    ),
    { env: 'API_TOKEN', expected: 'visible ASCII characters without spaces', secret: true },
  ),
  ...authSettings,
  idempotencyMaxKeys: setting(
    Type.Integer({
      minimum: 1,
      default: 1_000_000,
      description:
        'Idempotency-Keys kept at most (about 700 bytes each): a key replays for 24 h, or until this many newer keys have been stored, whichever comes first; checked every minute.',
    }),
    { env: 'IDEMPOTENCY_MAX_KEYS' },
  ),
  historyRetentionDays: setting(
    Type.Integer({
      minimum: 1,
      maximum: 36_500,
      default: 30,
      description:
        "Days a task's history is kept (GET /tasks/{id}/history); older entries are pruned every 10 minutes, except those an enabled webhook has yet to deliver.",
    }),
    { env: 'HISTORY_RETENTION_DAYS' },
  ),
  ...webhookSettings,
  rateLimit: setting(
    Type.Integer({
      minimum: 0,
      default: 0,
      description:
        'Requests a minute per principal (per client address without a credential), past which 429; 0: off.',
    }),
    { env: 'RATE_LIMIT' },
  ),
  rateLimitRedisUrl: setting(
    Type.Optional(
      Type.String({
        pattern: '^rediss?://',
        description:
          'Redis (redis://[:password@]host:port[/db], or rediss:// for TLS) that every instance counts RATE_LIMIT in, for one limit across them; unset: each instance counts alone. While Redis is unreachable requests are served uncounted (fail open).',
      }),
    ),
    { env: 'RATE_LIMIT_REDIS_URL', expected: 'a redis:// or rediss:// URL' },
  ),
  maxEventLoopDelayMs: setting(
    Type.Integer({
      minimum: 0,
      maximum: MAX_TIMER_MS,
      default: 1000,
      description:
        'Event-loop delay (ms) above which requests are shed with 503 rather than queued; 0: never.',
    }),
    { env: 'MAX_EVENT_LOOP_DELAY_MS' },
  ),
  otelExporterOtlpEndpoint: setting(
    Type.Optional(
      Type.String({
        pattern: '^https?://',
        description:
          'OpenTelemetry: the OTLP endpoint traces are sent to (http://collector:4318); the SDK reads the other standard OTEL_* variables (OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, ...). Unset: no tracing.',
      }),
    ),
    { env: 'OTEL_EXPORTER_OTLP_ENDPOINT', expected: 'an http:// or https:// URL' },
  ),
  groupCommit: setting(
    Type.Boolean({
      default: true,
      description:
        'on: creates, changes and deletes that arrive together share one commit (one fsync); off: one commit per write.',
    }),
    { env: 'GROUP_COMMIT' },
  ),
  maxSubscribers: setting(
    Type.Integer({
      minimum: 1,
      default: 1000,
      description:
        'Change-feed subscribers (GET /tasks/events) this instance serves at once; past it, 503.',
    }),
    { env: 'MAX_SUBSCRIBERS' },
  ),
  maxStreams: setting(
    Type.Integer({
      minimum: 1,
      default: 100,
      description: `Streamed listings (GET /tasks without limit, or with one over ${BUFFERED_PAGE_MAX}, when more than ${BUFFERED_PAGE_MAX} tasks match: smaller ones are sent in one piece) this instance sends at once; past it, 503.`,
    }),
    { env: 'MAX_STREAMS' },
  ),
  maxStreamsPerClient: setting(
    Type.Integer({
      minimum: 1,
      default: 16,
      description:
        "Streamed responses (change-feed subscriptions, streamed listings, docs files) one client address may have in progress at once; past it, 429. Behind a proxy, set TRUST_PROXY, or every client shares the proxy's address.",
    }),
    { env: 'MAX_STREAMS_PER_CLIENT' },
  ),
  maxConnections: setting(
    Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'Client connections open at once; past it, a new connection is closed as soon as it is accepted.',
      }),
    ),
    {
      env: 'MAX_CONNECTIONS',
      derivedDefault: `the open-file limit (ulimit -n) less ${RESERVED_DESCRIPTORS}, and less the database's descriptors: ${STORAGE_DESCRIPTORS_TEXT}`,
    },
  ),
  drainTimeoutMs: setting(
    Type.Integer({
      minimum: 1,
      maximum: MAX_TIMER_MS,
      default: 30_000,
      description:
        "Longest (ms) a client may leave a response unread (its connection's send buffer full) before the connection is closed, freeing what it holds (a feed or listing slot).",
    }),
    { env: 'DRAIN_TIMEOUT_MS' },
  ),
  allowedHosts: setting(
    Type.Array(Type.String({ format: 'host' }), {
      default: [],
      description:
        'Comma-separated names the Host header may carry (tasks.example.com, 10.0.0.5:3000; a name without a port matches any port), or *; another Host gets 421, which stops DNS-rebinding pages. Empty: localhost, 127.0.0.1 and [::1] when HOST is a loopback address, else any.',
    }),
    { env: 'ALLOWED_HOSTS', expected: 'a host name such as tasks.example.com, or *' },
  ),
  trustProxy: setting(
    Type.Array(Type.String({ format: 'proxy' }), {
      default: [],
      description:
        'Proxies whose X-Forwarded-For/-Proto/-Host are believed: a hop count (1: the nearest), or comma-separated addresses, CIDR ranges, loopback, linklocal or uniquelocal. The client address they give is what RATE_LIMIT, MAX_STREAMS_PER_CLIENT and the log go by. Empty: none; the peer is the client.',
    }),
    {
      env: 'TRUST_PROXY',
      expected: 'a hop count, an address, a CIDR range, loopback, linklocal or uniquelocal',
    },
  ),
})

/** Every setting's value, as the schema types it. */
export type SettingValues = Static<typeof SettingsSchema>
export type SettingKey = keyof SettingValues

/** The settings in the schema's order. */
export const settingKeys = Object.keys(SettingsSchema.properties) as SettingKey[]

/** A setting's schema with where it comes from and how it is shown. */
export const schemaOf = (key: SettingKey) =>
  SettingsSchema.properties[key] as unknown as TSchema & Source

/** A setting's flag: its environment variable in kebab case (`--database-url`). */
export const flagOf = (key: SettingKey) => schemaOf(key).env.toLowerCase().replaceAll('_', '-')

/** An environment variable by its name: the name a setting is known by everywhere. */
export function envName(key: SettingKey): string {
  return schemaOf(key).env
}

/** Every setting at its default (those without one left out). */
export function defaultSettings(): SettingValues {
  return Value.Create(SettingsSchema) as SettingValues
}

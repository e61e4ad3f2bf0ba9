import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { FormatRegistry, type Static, type TSchema, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { StorageConfig } from './storage/index.js'

/** Thrown for settings that cannot work; main prints the message and exits 2. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

FormatRegistry.Set('origin', (value) => {
  if (value === '*') return true
  try {
    return new URL(value).origin === value
  } catch {
    return false
  }
})

/** `*`, or a host name or address, with an optional port: `tasks.example.com`, `[::1]:3000`. */
FormatRegistry.Set('host', (value) =>
  /^(\*|[a-z0-9]([a-z0-9.-]*[a-z0-9])?\.?|\[[0-9a-f:.]+\])(:\d{1,5})?$/i.test(value),
)

/** Proxy-addr's words for address ranges, as TRUST_PROXY takes them. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** A hop count, an address, an address range (CIDR) or one of PROXY_RANGES. */
FormatRegistry.Set('proxy', (value) => {
  if (/^\d+$/.test(value) || PROXY_RANGES.has(value)) return true
  const [address = '', bits, ...rest] = value.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128))
})

/**
 * Where a setting comes from and how it is shown: its environment variable (the flag is
 * the same name in kebab case), the phrase for what a valid value is when the schema
 * alone cannot say it, whether it is a secret (never printed), and whether only
 * PostgreSQL reads it (an SQLite server ignores it, even when it is not valid).
 */
interface Source {
  env: string
  expected?: string
  /** What --help says the default is, when it is worked out at start-up rather than fixed. */
  derivedDefault?: string
  secret?: boolean
  postgresOnly?: boolean
}

const setting = <T extends TSchema>(schema: T, source: Source): T => Object.assign(schema, source)

/** Log levels, quietest last. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** Where tasks are stored when DATABASE_URL is not set (relative to the starting directory). */
export const DEFAULT_DATABASE_FILE = 'data/tasklane.db'

/**
 * Every setting of the server, its type, range, default and meaning: the one place they
 * are defined. The environment and the flags are read onto it, `--help` is generated
 * from it, and the README's table says the same.
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
  databaseUrl: setting(
    Type.String({
      default: DEFAULT_DATABASE_FILE,
      description:
        'SQLite file path, or sqlite: followed by one; postgres://… or postgresql://… selects PostgreSQL. Relative paths resolve against the directory the command was started from.',
    }),
    { env: 'DATABASE_URL' },
  ),
  databasePoolSize: setting(
    Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: 10,
      description: 'PostgreSQL only: connections each instance may hold.',
    }),
    { env: 'DATABASE_POOL_SIZE', postgresOnly: true },
  ),
  databaseTimeoutMs: setting(
    Type.Integer({
      minimum: 1,
      default: 5000,
      description:
        'PostgreSQL only: longest wait (ms) for a connection, a lock or a statement; past it the request gets 503 rather than waiting for the database.',
    }),
    { env: 'DATABASE_TIMEOUT_MS', postgresOnly: true },
  ),
  databaseDirectUrl: setting(
    Type.Optional(
      Type.String({
        pattern: '^postgres(ql)?://',
        description:
          "PostgreSQL only: a URL straight to PostgreSQL (not through a pooler) for what needs a session: the change feed's LISTEN and the migrations. Unset: both use DATABASE_URL; when that goes through a transaction-mode pooler, the feed then reads the newest change every 250 ms instead (a change reaches other instances' feeds within about 250 ms).",
      }),
    ),
    {
      env: 'DATABASE_DIRECT_URL',
      expected: 'a postgres:// or postgresql:// URL',
      postgresOnly: true,
    },
  ),
  databasePreparedStatements: setting(
    Type.Union(
      (['auto', 'on', 'off'] as const).map((value) => Type.Literal(value)),
      {
        default: 'auto',
        description:
          "PostgreSQL only: on when DATABASE_URL's connections are sessions of their own (straight to PostgreSQL, or a pooler in session mode): prepared statements, timeouts set once per connection. off for a transaction-mode pooler (PgBouncer, Supavisor, RDS Proxy): each statement a transaction of its own with its timeouts (SET LOCAL), nothing prepared. auto: on unless a pooler is detected at start-up.",
      },
    ),
    { env: 'DATABASE_PREPARED_STATEMENTS', postgresOnly: true },
  ),
  readyTimeoutMs: setting(
    Type.Integer({
      minimum: 1,
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
        description: 'Least severe log level written; logs are JSON lines, one per request.',
      },
    ),
    { env: 'LOG_LEVEL' },
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
  rateLimit: setting(
    Type.Integer({
      minimum: 0,
      default: 0,
      description: 'Requests a minute per client address, past which 429; 0: off.',
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
        'on: creates that arrive together share one commit (one fsync); off: one commit per create.',
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
      description:
        'Streamed listings (GET /tasks without limit, or with one over 1000) this instance sends at once; past it, 503.',
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
      derivedDefault:
        'the open-file limit (ulimit -n) less 64, and less DATABASE_POOL_SIZE + 1 on PostgreSQL',
    },
  ),
  drainTimeoutMs: setting(
    Type.Integer({
      minimum: 1,
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

type Values = Static<typeof SettingsSchema>
type Key = keyof Values

/** The settings as the server runs with them, read and validated once. */
export interface Settings extends Values {
  /** Where tasks are stored, from DATABASE_URL (and the other DATABASE_* settings). */
  readonly storage: StorageConfig
}

/** What the command line asks for. */
export type Invocation =
  | { readonly command: 'help' }
  | { readonly command: 'version' }
  | { readonly command: 'run'; readonly settings: Settings }

const keys = Object.keys(SettingsSchema.properties) as Key[]
const schemaOf = (key: Key) => SettingsSchema.properties[key] as unknown as TSchema & Source
const flagOf = (key: Key) => schemaOf(key).env.toLowerCase().replaceAll('_', '-')

/** An environment variable by its name: the name a setting is known by everywhere. */
export function envName(key: Key): string {
  return schemaOf(key).env
}

/**
 * `DATABASE_URL`: `postgres://…` or `postgresql://…` selects PostgreSQL; a file path, or
 * `sqlite:` followed by one, selects SQLite. Relative paths resolve against `cwd`.
 */
export function parseDatabaseUrl(
  value: string | undefined,
  cwd: string = process.cwd(),
  poolSize = 10,
  timeoutMs?: number,
): StorageConfig {
  const url = value?.trim() || DEFAULT_DATABASE_FILE
  if (/^postgres(ql)?:\/\//i.test(url)) {
    return timeoutMs === undefined
      ? { kind: 'postgres', url, poolSize }
      : { kind: 'postgres', url, poolSize, timeoutMs }
  }
  const path = url.replace(/^sqlite:(\/\/(?=\/))?/i, '')
  if (path === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new ConfigError(
      `DATABASE_URL "${url}" is neither a PostgreSQL URL nor an SQLite file path.`,
    )
  }
  return { kind: 'sqlite', filename: path === ':memory:' ? path : resolve(cwd, path) }
}

/** What a valid value of a setting is, in words, for its error message. */
function expected(schema: TSchema & Source): string {
  if (schema.expected) return schema.expected
  if (schema.type === 'integer') {
    return schema.maximum === undefined
      ? `a whole number of at least ${schema.minimum}`
      : `a whole number from ${schema.minimum} to ${schema.maximum}`
  }
  if (schema.type === 'boolean') return 'on or off'
  if (schema.anyOf) return `one of ${schema.anyOf.map((s: TSchema) => s.const).join(', ')}`
  return 'valid'
}

/** A setting's text (from a variable or a flag) as its schema's type, or a ConfigError. */
function parseValue(key: Key, text: string): unknown {
  const schema = schemaOf(key)
  const shown = schema.secret ? '' : ` "${withoutPassword(text)}"`
  const fail = (item?: string): never => {
    throw new ConfigError(
      item === undefined
        ? `${schema.env}${shown} is not ${expected(schema)}.`
        : `${schema.env} entry "${item}" is not ${expected(schema)}.`,
    )
  }
  let value: unknown = text
  if (schema.type === 'integer') value = /^\d+$/.test(text) ? Number(text) : fail()
  else if (schema.type === 'boolean') {
    value = /^(on|true|1)$/i.test(text) ? true : /^(off|false|0)$/i.test(text) ? false : fail()
  } else if (schema.type === 'array') {
    value = text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '')
  }
  const error = Value.Errors(schema, value).First()
  if (error) {
    const item = /^\/\d+$/.test(error.path) ? String(error.value) : undefined
    fail(item)
  }
  return value
}

/**
 * Reads every setting from `--flags` and the environment (a flag wins over its variable),
 * validates it against the schema and fills in defaults. Relative database paths resolve
 * against INIT_CWD (where `pnpm start` was typed) or the current directory.
 */
export function parseCommandLine(
  argv: readonly string[] = process.argv.slice(2),
  env: Readonly<Record<string, string | undefined>> = process.env,
): Invocation {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      // `pnpm start -- --port 1` passes the `--` along; it separates nothing here. `-V`
      // is `-v`, as many tools spell it (parseArgs takes one short name per option).
      args: (argv[0] === '--' ? argv.slice(1) : [...argv]).map((arg) =>
        arg === '-V' ? '-v' : arg,
      ),
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        ...Object.fromEntries(keys.map((key) => [flagOf(key), { type: 'string' as const }])),
      },
      strict: true,
    })
  } catch (error) {
    throw new ConfigError(`${(error as Error).message} See --help.`)
  }
  const flags = parsed.values as Record<string, string | boolean | undefined>
  if (flags.help) return { command: 'help' }
  if (flags.version) return { command: 'version' }

  const text = (key: Key) => (flags[flagOf(key)] as string | undefined) ?? env[envName(key)]
  const storageKind = parseDatabaseUrl(text('databaseUrl'), '/').kind
  const values: Record<string, unknown> = {}
  for (const key of keys) {
    const schema = schemaOf(key)
    const raw = text(key)
    const ignored = schema.postgresOnly && storageKind !== 'postgres'
    // An empty text or list means "not set" (API_TOKEN= is no token); an empty number,
    // switch or level is a mistake to report, not a default to fall back on.
    const unset = raw === '' && (schema.type === 'string' || schema.type === 'array')
    values[key] = raw === undefined || unset || ignored ? schema.default : parseValue(key, raw)
  }
  const settings = values as unknown as Values
  if (settings.trustProxy.length > 1 && settings.trustProxy.some((item) => /^\d+$/.test(item))) {
    throw new ConfigError('TRUST_PROXY is either a hop count alone or a list of addresses.')
  }
  const storage = parseDatabaseUrl(
    settings.databaseUrl,
    env.INIT_CWD ?? process.cwd(),
    settings.databasePoolSize,
    settings.databaseTimeoutMs,
  )
  if (storage.kind === 'postgres') {
    const pooler = {
      directUrl: settings.databaseDirectUrl,
      preparedStatements: settings.databasePreparedStatements,
    }
    return { command: 'run', settings: { ...settings, storage: { ...storage, ...pooler } } }
  }
  return { command: 'run', settings: { ...settings, storage } }
}

/** The settings a command line and environment give, or a ConfigError; for tests and tools. */
export function loadSettings(
  env: Readonly<Record<string, string | undefined>> = {},
  argv: readonly string[] = [],
): Settings {
  const invocation = parseCommandLine(argv, env)
  if (invocation.command !== 'run') throw new ConfigError(`--${invocation.command} runs nothing.`)
  return invocation.settings
}

/** `--help`: every setting with its flag, variable, default and meaning, from the schema. */
export function helpText(bin = 'tasklane-server'): string {
  const rows = keys.map((key) => {
    const schema = schemaOf(key)
    const fallback = schema.default
    const shown = schema.derivedDefault
      ? schema.derivedDefault
      : Array.isArray(fallback)
        ? fallback.join(',') || '(none)'
        : typeof fallback === 'boolean'
          ? fallback
            ? 'on'
            : 'off'
          : (fallback ?? '(none)')
    return [`--${flagOf(key)} <value>`, schema.env, `${schema.description} Default: ${shown}.`]
  })
  rows.push(['-h, --help', '', 'Print this help and exit.'])
  rows.push(['-v, -V, --version', '', 'Print the version and exit.'])
  const width = (i: number) => Math.max(...rows.map((row) => (row[i] as string).length))
  const [flagWidth, envWidth] = [width(0), width(1)]
  const lines = rows.map(
    ([flag, envVar, text]) =>
      `  ${(flag as string).padEnd(flagWidth)}  ${(envVar as string).padEnd(envWidth)}  ${text}`,
  )
  return [
    `Usage: ${bin} [options]`,
    '',
    'Starts the tasklane HTTP server. Every option can also be set with its environment',
    'variable; a flag wins over its variable.',
    '',
    'Options:',
    ...lines,
    '',
  ].join('\n')
}

/**
 * A URL with its password masked: in the user info (`postgres://user:pw@…`, also with no
 * user, as `redis://:pw@…`) and in a `password` query parameter (`?password=pw`).
 */
function withoutPassword(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/i, '$1:***@')
    .replace(/([?&]password=)[^&#]*/gi, '$1***')
}

/**
 * The settings with secrets masked and passwords taken out of URLs, for a log line; an
 * SQLite database as the absolute path it was resolved to, whatever DATABASE_URL said.
 */
export function printable(settings: Settings): Record<string, unknown> {
  const shown: Record<string, unknown> = {}
  for (const key of keys) {
    const value = settings[key]
    if (key === 'databaseUrl' && settings.storage.kind === 'sqlite') {
      shown[key] = settings.storage.filename
    } else if (schemaOf(key).secret) shown[key] = value === undefined ? undefined : '***'
    else if (typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
      shown[key] = withoutPassword(value)
    } else shown[key] = value
  }
  return shown
}

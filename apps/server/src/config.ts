import { resolve } from 'node:path'
import { type ParseArgsConfig, parseArgs } from 'node:util'

/** Where tasks are stored. */
export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly filename: string }
  | {
      readonly kind: 'postgres'
      readonly url: string
      /** Connections each server instance may hold (`DATABASE_POOL_SIZE`); default 10. */
      readonly poolSize?: number
    }

/** Everything the server reads from its environment, parsed and validated once. */
export interface Config {
  readonly port: number
  readonly host: string
  readonly database: DatabaseConfig
  readonly logLevel: string
  /** Origins allowed to call the API from a browser (CORS); empty: CORS is off. */
  readonly corsOrigins: readonly string[]
  /** Bearer token every API route requires; undefined: no authentication. */
  readonly apiToken: string | undefined
  /** Requests per minute per client address; 0: no rate limit. */
  readonly rateLimitPerMinute: number
  /** Event-loop delay (ms) above which requests are shed with 503; 0: never. */
  readonly maxEventLoopDelayMs: number
  /** Concurrent creates share one commit (one fsync); off: one commit per create. */
  readonly groupCommit: boolean
}

export const DEFAULT_DATABASE_FILE = 'data/tasklane.db'
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** Thrown for configuration that cannot work; main prints it and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

/**
 * `DATABASE_URL`: `postgres://…` or `postgresql://…` selects PostgreSQL; a file path, or
 * `sqlite:` followed by one, selects SQLite. Relative paths resolve against `cwd`.
 */
export function parseDatabaseUrl(
  value: string | undefined,
  cwd: string = process.cwd(),
): DatabaseConfig {
  const url = value?.trim() || DEFAULT_DATABASE_FILE
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: 'postgres', url }
  const path = url.replace(/^sqlite:(\/\/(?=\/))?/i, '')
  if (path === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new ConfigError(
      `DATABASE_URL "${url}" is neither a PostgreSQL URL nor an SQLite file path.`,
    )
  }
  return { kind: 'sqlite', filename: path === ':memory:' ? path : resolve(cwd, path) }
}

/** A decimal whole number from `min` to `max`; otherwise a ConfigError saying what was expected. */
function parseWholeNumber(
  name: string,
  value: string,
  { min = 0, max = Number.MAX_SAFE_INTEGER, expected = 'a whole number' } = {},
): number {
  const number = Number(value)
  if (!/^\d+$/.test(value) || number < min || number > max) {
    throw new ConfigError(`${name} "${value}" is not ${expected}.`)
  }
  return number
}

function parseSwitch(name: string, value: string): boolean {
  if (/^(on|true|1)$/i.test(value)) return true
  if (/^(off|false|0)$/i.test(value)) return false
  throw new ConfigError(`${name} "${value}" is neither on nor off.`)
}

function parseApiToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  if (!/^[\x21-\x7E]+$/.test(value)) {
    throw new ConfigError('API_TOKEN must be visible ASCII characters without spaces.')
  }
  return value
}

/** parseArgs, with its errors (unknown flag, missing value) as ConfigErrors. */
function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config)
  } catch (error) {
    throw new ConfigError((error as Error).message)
  }
}

/**
 * `CORS_ORIGINS`: comma-separated origins (`https://app.example.com`), or `*` for any.
 * Each must be a bare origin: a browser sends no path, so one here could never match.
 */
export function parseCorsOrigins(value: string | undefined): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '')
  for (const origin of origins) {
    if (origin === '*') continue
    let parsed: URL | undefined
    try {
      parsed = new URL(origin)
    } catch {}
    if (parsed?.origin !== origin) {
      throw new ConfigError(
        `CORS_ORIGINS entry "${origin}" is not an origin such as https://app.example.com.`,
      )
    }
  }
  return origins
}

function withPoolSize(database: DatabaseConfig, poolSize: number): DatabaseConfig {
  return database.kind === 'postgres' ? { ...database, poolSize } : database
}

/**
 * Reads `PORT`, `HOST`, `DATABASE_URL`, `DATABASE_POOL_SIZE`, `LOG_LEVEL`, `CORS_ORIGINS`; matching `--flags` take precedence.
 * Relative database paths resolve against the directory the command was started from.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  argv: string[] = process.argv.slice(2),
): Config {
  const { values } = parseFlags({
    // `pnpm start -- --port 1` passes the `--` along; it separates nothing here.
    args: argv[0] === '--' ? argv.slice(1) : argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'database-url': { type: 'string' },
      'database-pool-size': { type: 'string' },
      'log-level': { type: 'string' },
      'cors-origins': { type: 'string' },
      'api-token': { type: 'string' },
      'rate-limit': { type: 'string' },
      'max-event-loop-delay-ms': { type: 'string' },
      'group-commit': { type: 'string' },
    },
    strict: true,
  })
  const logLevel = values['log-level'] ?? env.LOG_LEVEL ?? 'info'
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL "${logLevel}" is not one of ${LOG_LEVELS.join(', ')}.`)
  }
  return {
    port: parseWholeNumber('PORT', values.port ?? env.PORT ?? '3000', {
      max: 65_535,
      expected: 'a port number (0–65535)',
    }),
    host: values.host ?? env.HOST ?? '127.0.0.1',
    // INIT_CWD: where `pnpm start` was typed, so relative paths mean what the user meant.
    database: withPoolSize(
      parseDatabaseUrl(values['database-url'] ?? env.DATABASE_URL, env.INIT_CWD),
      parseWholeNumber(
        'DATABASE_POOL_SIZE',
        values['database-pool-size'] ?? env.DATABASE_POOL_SIZE ?? '10',
        { min: 1, max: 1000, expected: 'a whole number from 1 to 1000' },
      ),
    ),
    logLevel,
    corsOrigins: parseCorsOrigins(values['cors-origins'] ?? env.CORS_ORIGINS),
    apiToken: parseApiToken(values['api-token'] ?? env.API_TOKEN),
    rateLimitPerMinute: parseWholeNumber(
      'RATE_LIMIT',
      values['rate-limit'] ?? env.RATE_LIMIT ?? '0',
    ),
    groupCommit: parseSwitch('GROUP_COMMIT', values['group-commit'] ?? env.GROUP_COMMIT ?? 'on'),
    maxEventLoopDelayMs: parseWholeNumber(
      'MAX_EVENT_LOOP_DELAY_MS',
      values['max-event-loop-delay-ms'] ?? env.MAX_EVENT_LOOP_DELAY_MS ?? '1000',
    ),
  }
}

import { parseArgs } from 'node:util'
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { StorageConfig } from '../storage/open-storage.js'
import { ConfigError } from './config-error.js'
import { parseDatabaseUrl } from './database-url.js'
import {
  flagOf,
  type SettingKey,
  type SettingValues,
  type Source,
  schemaOf,
  settingKeys,
} from './schema.js'
import { withoutPassword } from './without-password.js'

/** The settings DATABASE_URL and the other DATABASE_* give together: `Settings.storage`. */
type DatabaseKey =
  | 'databaseUrl'
  | 'databasePoolSize'
  | 'databaseTimeoutMs'
  | 'databaseDirectUrl'
  | 'databasePreparedStatements'

/**
 * The settings as the server runs with them, read and validated once. The DATABASE_*
 * settings are kept once, as the storage they describe.
 */
export interface Settings extends Omit<SettingValues, DatabaseKey> {
  readonly storage: StorageConfig
}

/** The settings the app is built with: all but where the database is (the storage is given). */
export type AppSettings = Omit<Settings, 'storage'>

/** What the command line asks for. */
export type Invocation =
  | { readonly command: 'help' }
  | { readonly command: 'version' }
  | { readonly command: 'run'; readonly settings: Settings }

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
function parseValue(key: SettingKey, text: string): unknown {
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

/** The flags parseArgs takes: -h, -v and one `--kebab-case` string per setting. */
function readFlags(argv: readonly string[]): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({
      // `pnpm start -- --port 1` passes the `--` along; it separates nothing here. `-V`
      // is `-v`, as many tools spell it (parseArgs takes one short name per option).
      args: (argv[0] === '--' ? argv.slice(1) : [...argv]).map((arg) =>
        arg === '-V' ? '-v' : arg,
      ),
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        ...Object.fromEntries(settingKeys.map((key) => [flagOf(key), { type: 'string' as const }])),
      },
      strict: true,
    }).values
  } catch (error) {
    const message = (error as Error).message.trim()
    throw new ConfigError(`${message}${/[.!?]$/.test(message) ? '' : '.'} See --help.`)
  }
}

/**
 * Reads every setting from the environment and `--flags` (a flag wins over its variable),
 * validates it against the schema and fills in defaults. DATABASE_URL is read once, into
 * `storage`; a relative SQLite path resolves against INIT_CWD (where `pnpm start` was
 * typed) or the current directory.
 */
export function parseCommandLine(
  env: Readonly<Record<string, string | undefined>> = process.env,
  argv: readonly string[] = process.argv.slice(2),
): Invocation {
  const flags = readFlags(argv)
  if (flags.help) return { command: 'help' }
  if (flags.version) return { command: 'version' }

  const text = (key: SettingKey) =>
    (flags[flagOf(key)] as string | undefined) ?? env[schemaOf(key).env]
  const database = parseDatabaseUrl(text('databaseUrl'), env.INIT_CWD ?? process.cwd())
  const values: Record<string, unknown> = {}
  for (const key of settingKeys) {
    const schema = schemaOf(key)
    if (key === 'databaseUrl' || (schema.postgresOnly && database.kind !== 'postgres')) continue
    const raw = text(key)
    // An empty text or list means "not set" (API_TOKEN= is no token); an empty number,
    // switch or level is a mistake to report, not a default to fall back on.
    const unset = raw === '' && (schema.type === 'string' || schema.type === 'array')
    values[key] = raw === undefined || unset ? schema.default : parseValue(key, raw)
  }
  const {
    databasePoolSize,
    databaseTimeoutMs,
    databaseDirectUrl,
    databasePreparedStatements,
    ...settings
  } = values as unknown as Omit<SettingValues, 'databaseUrl'>
  if (settings.trustProxy.length > 1 && settings.trustProxy.some((item) => /^\d+$/.test(item))) {
    throw new ConfigError('TRUST_PROXY is either a hop count alone or a list of addresses.')
  }
  if (settings.authJwtSecret !== undefined && settings.authJwksUrl !== undefined) {
    throw new ConfigError(
      'Set AUTH_JWT_SECRET (HS256) or AUTH_JWKS_URL (RS256, ES256, EdDSA), not both: a JWT is checked against one of them.',
    )
  }
  const storage: StorageConfig =
    database.kind === 'sqlite'
      ? database
      : {
          ...database,
          poolSize: databasePoolSize,
          timeoutMs: databaseTimeoutMs,
          directUrl: databaseDirectUrl,
          preparedStatements: databasePreparedStatements,
        }
  return { command: 'run', settings: { ...settings, storage } }
}

/** The settings a command line and environment give, or a ConfigError; for tests and tools. */
export function loadSettings(
  env: Readonly<Record<string, string | undefined>> = {},
  argv: readonly string[] = [],
): Settings {
  const invocation = parseCommandLine(env, argv)
  if (invocation.command !== 'run') throw new ConfigError(`--${invocation.command} runs nothing.`)
  return invocation.settings
}

// Every setting's parsing, defaults, ranges and refusals: over 300 lines because each
// setting's rules are tests of their own.
import { resolve } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { ConfigError } from '../src/settings/config-error.js'
import { parseDatabaseUrl } from '../src/settings/database-url.js'
import { RESERVED_DESCRIPTORS } from '../src/settings/descriptor-limit.js'
import { helpText } from '../src/settings/help.js'
import { loadSettings, parseCommandLine } from '../src/settings/parse.js'
import { printable } from '../src/settings/printable.js'
import { DEFAULT_DATABASE_FILE, envName, SettingsSchema } from '../src/settings/schema.js'
import { postgresDescriptors, SQLITE_DESCRIPTORS } from '../src/storage/descriptors.js'

const CWD = '/srv/tasklane'
const POSTGRES = 'postgres://db/tasks'

/** The ConfigError message `loadSettings` throws for this environment and these flags. */
function refusal(env: Record<string, string>, argv: string[] = []): string {
  try {
    loadSettings(env, argv)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
  throw new Error(`${JSON.stringify({ env, argv })} was accepted`)
}

describe('parseDatabaseUrl', () => {
  it.each([
    ['sqlite:./x.db', '/srv/tasklane/x.db'],
    ['sqlite:/abs/x.db', '/abs/x.db'],
    ['sqlite:///abs/x.db', '/abs/x.db'],
    ['./data/tasks.db', '/srv/tasklane/data/tasks.db'],
    ['/var/lib/tasklane/tasks.db', '/var/lib/tasklane/tasks.db'],
    ['sqlite::memory:', ':memory:'],
  ])('reads %s as the SQLite file %s', (value, filename) => {
    expect(parseDatabaseUrl(value, CWD)).toEqual({ kind: 'sqlite', filename })
  })

  it('defaults to data/tasklane.db when unset or blank', () => {
    const expected = { kind: 'sqlite', filename: '/srv/tasklane/data/tasklane.db' }
    expect(resolve(CWD, DEFAULT_DATABASE_FILE)).toBe(expected.filename)
    for (const value of [undefined, '', '   '])
      expect(parseDatabaseUrl(value, CWD)).toEqual(expected)
  })

  it.each([
    'postgres://user:secret@db.example:5432/tasks',
    'postgresql://db.example/tasks?sslmode=require',
  ])('selects PostgreSQL for %s', (url) => {
    expect(parseDatabaseUrl(url, CWD)).toEqual({ kind: 'postgres', url })
  })

  it('rejects another URL scheme, and sqlite: with no path, with a ConfigError', () => {
    expect(() => parseDatabaseUrl('mysql://db.example/tasks', CWD)).toThrow(
      new ConfigError(
        'DATABASE_URL "mysql://db.example/tasks" is neither a PostgreSQL URL nor an SQLite file path.',
      ),
    )
    expect(() => parseDatabaseUrl('sqlite:', CWD)).toThrow(ConfigError)
  })
})

describe('loadSettings', () => {
  it('uses the defaults when nothing is set', () => {
    expect(loadSettings({}, [])).toEqual({
      port: 3000,
      host: '127.0.0.1',
      readyTimeoutMs: 1000,
      logLevel: 'info',
      logFormat: 'auto',
      corsOrigins: [],
      apiToken: undefined,
      rateLimit: 0,
      maxEventLoopDelayMs: 1000,
      groupCommit: true,
      maxSubscribers: 1000,
      maxStreams: 100,
      maxStreamsPerClient: 16,
      maxConnections: undefined,
      drainTimeoutMs: 30_000,
      allowedHosts: [],
      trustProxy: [],
      idempotencyMaxKeys: 1_000_000,
      historyRetentionDays: 30,
      webhookAllowedHosts: [],
      storage: { kind: 'sqlite', filename: resolve(process.cwd(), DEFAULT_DATABASE_FILE) },
    })
  })

  it('reads every setting from its environment variable', () => {
    expect(
      loadSettings({
        PORT: '8080',
        HOST: '0.0.0.0',
        DATABASE_URL: POSTGRES,
        DATABASE_POOL_SIZE: '25',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        CORS_ORIGINS: 'https://a.example',
        API_TOKEN: 'tl_secret',
        RATE_LIMIT: '100',
        MAX_EVENT_LOOP_DELAY_MS: '0',
        GROUP_COMMIT: 'off',
        MAX_SUBSCRIBERS: '50',
        MAX_STREAMS_PER_CLIENT: '4',
        MAX_CONNECTIONS: '500',
        DRAIN_TIMEOUT_MS: '5000',
        ALLOWED_HOSTS: 'tasks.example.com, [::1]:3000,10.0.0.5',
        TRUST_PROXY: '127.0.0.1,10.0.0.0/8, loopback',
      }),
    ).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      storage: { kind: 'postgres', url: POSTGRES, poolSize: 25 },
      logLevel: 'warn',
      logFormat: 'json',
      corsOrigins: ['https://a.example'],
      apiToken: 'tl_secret',
      rateLimit: 100,
      maxEventLoopDelayMs: 0,
      groupCommit: false,
      maxSubscribers: 50,
      maxStreamsPerClient: 4,
      maxConnections: 500,
      drainTimeoutMs: 5000,
      allowedHosts: ['tasks.example.com', '[::1]:3000', '10.0.0.5'],
      trustProxy: ['127.0.0.1', '10.0.0.0/8', 'loopback'],
    })
  })

  it('takes TRUST_PROXY as a hop count, ALLOWED_HOSTS as *', () => {
    expect(loadSettings({ TRUST_PROXY: '2', ALLOWED_HOSTS: '*' })).toMatchObject({
      trustProxy: ['2'],
      allowedHosts: ['*'],
    })
  })

  it.each([
    [
      { TRUST_PROXY: 'proxy.example' },
      'TRUST_PROXY entry "proxy.example" is not a hop count, an address, a CIDR range, loopback, linklocal or uniquelocal.',
    ],
    [
      { TRUST_PROXY: '10.0.0.0/33' },
      'TRUST_PROXY entry "10.0.0.0/33" is not a hop count, an address, a CIDR range, loopback, linklocal or uniquelocal.',
    ],
    [
      { TRUST_PROXY: '1,127.0.0.1' },
      'TRUST_PROXY is either a hop count alone or a list of addresses.',
    ],
    [
      {
        AUTH_JWT_SECRET: 'a-shared-secret-of-at-least-32-characters',
        AUTH_JWKS_URL: 'https://auth.example.com/.well-known/jwks.json',
      },
      'Set AUTH_JWT_SECRET (HS256) or AUTH_JWKS_URL (RS256, ES256, EdDSA), not both: a JWT is checked against one of them.',
    ],
    [
      { ALLOWED_HOSTS: 'https://tasks.example.com' },
      'ALLOWED_HOSTS entry "https://tasks.example.com" is not a host name such as tasks.example.com, or *.',
    ],
    [{ MAX_CONNECTIONS: '0' }, 'MAX_CONNECTIONS "0" is not a whole number of at least 1.'],
    [{ DRAIN_TIMEOUT_MS: '0' }, 'DRAIN_TIMEOUT_MS "0" is not a whole number from 1 to 2147483647.'],
    [
      { MAX_STREAMS_PER_CLIENT: '0' },
      'MAX_STREAMS_PER_CLIENT "0" is not a whole number of at least 1.',
    ],
  ])('refuses %j, saying what is expected', (env, message) => {
    expect(refusal(env)).toBe(message)
  })

  it.each(['-v', '-V', '--version'])('reads %s as --version', (flag) => {
    expect(parseCommandLine({}, [flag])).toEqual({ command: 'version' })
  })

  it('lets --flags take precedence over the environment', () => {
    const env = { PORT: '8080', HOST: '0.0.0.0', DATABASE_URL: POSTGRES, GROUP_COMMIT: 'off' }
    expect(
      loadSettings(env, [
        '--port',
        '9090',
        '--host=::1',
        '--database-url',
        'sqlite:/tmp/flag.db',
        '--log-level',
        'debug',
        '--group-commit',
        'on',
      ]),
    ).toMatchObject({
      port: 9090,
      host: '::1',
      storage: { kind: 'sqlite', filename: '/tmp/flag.db' },
      logLevel: 'debug',
      groupCommit: true,
    })
  })

  it('ignores a leading -- that pnpm passes along before the flags', () => {
    expect(loadSettings({}, ['--', '--port', '4000', '--host', '0.0.0.0'])).toMatchObject({
      port: 4000,
      host: '0.0.0.0',
    })
  })

  it('resolves a relative DATABASE_URL against INIT_CWD (where pnpm start was typed)', () => {
    expect(
      loadSettings({ DATABASE_URL: 'sqlite:./t.db', INIT_CWD: '/home/me/project' }).storage,
    ).toEqual({ kind: 'sqlite', filename: '/home/me/project/t.db' })
  })

  it('accepts port 0 and 65535', () => {
    expect(loadSettings({ PORT: '0' }).port).toBe(0)
    expect(loadSettings({ PORT: '65535' }).port).toBe(65_535)
  })

  it.each(['abc', '65536', '-1', '80.5', '', ' 80', '0x50'])(
    'refuses PORT "%s", naming the range',
    (port) => {
      expect(refusal({ PORT: port })).toBe(`PORT "${port}" is not a whole number from 0 to 65535.`)
    },
  )

  it('refuses an invalid --port flag with the same message', () => {
    expect(refusal({}, ['--port', 'http'])).toBe(
      'PORT "http" is not a whole number from 0 to 65535.',
    )
  })

  it('refuses an unknown LOG_LEVEL, listing the levels', () => {
    expect(refusal({ LOG_LEVEL: 'verbose' })).toBe(
      'LOG_LEVEL "verbose" is not one of fatal, error, warn, info, debug, trace, silent.',
    )
  })

  it('refuses an unsupported DATABASE_URL', () => {
    expect(refusal({ DATABASE_URL: 'redis://cache' })).toBe(
      'DATABASE_URL "redis://cache" is neither a PostgreSQL URL nor an SQLite file path.',
    )
  })

  it('refuses RATE_LIMIT and MAX_EVENT_LOOP_DELAY_MS that are not whole numbers', () => {
    expect(refusal({ RATE_LIMIT: '-5' })).toBe(
      'RATE_LIMIT "-5" is not a whole number of at least 0.',
    )
    expect(refusal({ MAX_EVENT_LOOP_DELAY_MS: '1.5' })).toBe(
      'MAX_EVENT_LOOP_DELAY_MS "1.5" is not a whole number from 0 to 2147483647.',
    )
  })

  it('refuses a MAX_SUBSCRIBERS below 1', () => {
    expect(refusal({ MAX_SUBSCRIBERS: '0' })).toBe(
      'MAX_SUBSCRIBERS "0" is not a whole number of at least 1.',
    )
  })

  it('refuses an unknown flag, pointing at --help', () => {
    expect(refusal({}, ['--prot', '80'])).toMatch(/'--prot'\..* See --help\.$/s)
  })
})

describe('parseCommandLine', () => {
  it.each([
    [['--help'], 'help'],
    [['-h'], 'help'],
    [['--version'], 'version'],
    [['-v'], 'version'],
    [['--', '--help'], 'help'],
  ])('reads %j as the %s command, whatever the environment', (argv, command) => {
    expect(parseCommandLine({ PORT: 'not even a port' }, argv)).toEqual({ command })
  })

  it('runs the server otherwise, with the settings read', () => {
    expect(parseCommandLine({}, [])).toMatchObject({ command: 'run', settings: { port: 3000 } })
  })
})

describe('DATABASE_POOL_SIZE', () => {
  it('reads DATABASE_POOL_SIZE for PostgreSQL, and --database-pool-size over it', () => {
    const env = { DATABASE_URL: POSTGRES, DATABASE_POOL_SIZE: '25' }
    expect(loadSettings(env).storage).toEqual({
      kind: 'postgres',
      url: POSTGRES,
      poolSize: 25,
      timeoutMs: 5000,
      preparedStatements: 'auto',
    })
    expect(loadSettings(env, ['--database-pool-size', '3']).storage).toMatchObject({ poolSize: 3 })
  })
})

describe('MAX_STREAMS and READY_TIMEOUT_MS', () => {
  it('reads them, and refuses a value below 1', () => {
    expect(loadSettings({ MAX_STREAMS: '7', READY_TIMEOUT_MS: '250' })).toMatchObject({
      maxStreams: 7,
      readyTimeoutMs: 250,
    })
    expect(refusal({ MAX_STREAMS: '0' })).toBe(
      'MAX_STREAMS "0" is not a whole number of at least 1.',
    )
    expect(refusal({ READY_TIMEOUT_MS: 'soon' })).toBe(
      'READY_TIMEOUT_MS "soon" is not a whole number from 1 to 2147483647.',
    )
  })

  // The size past which a listing streams is the listing's to decide: a copy of it in the
  // description would go on saying the old number once the listing changes it.
  it("describes MAX_STREAMS with the listing's page size, whatever it is", async () => {
    vi.resetModules()
    vi.doMock('../src/tasks/listing.js', async (original) => ({
      ...(await original<object>()),
      BUFFERED_PAGE_MAX: 2500,
    }))
    try {
      const { SettingsSchema: schema } = await import('../src/settings/schema.js')
      expect(schema.properties.maxStreams.description).toContain(
        'GET /tasks without limit, or with one over 2500, when more than 2500 tasks match',
      )
    } finally {
      vi.doUnmock('../src/tasks/listing.js')
      vi.resetModules()
    }
  })
})

// A timer of 2^31 ms or more fires at once (Node clamps it to 1 ms): such a timeout would
// make every wait fail at once, so it stops the start instead.
describe('timeouts past what a timer can wait', () => {
  it.each([
    ['DATABASE_TIMEOUT_MS', { DATABASE_URL: POSTGRES }],
    ['READY_TIMEOUT_MS', {}],
    ['DRAIN_TIMEOUT_MS', {}],
    ['MAX_EVENT_LOOP_DELAY_MS', {}],
  ])('%s takes 2147483647 and refuses 2147483648', (name, env) => {
    expect(() => loadSettings({ ...env, [name]: '2147483647' })).not.toThrow()
    expect(refusal({ ...env, [name]: '2147483648' })).toMatch(
      new RegExp(`^${name} "2147483648" is not a whole number from [01] to 2147483647\\.$`),
    )
    expect(refusal({ ...env, [name]: '99999999999999999999' })).toMatch(/to 2147483647\.$/)
  })
})

describe('DATABASE_TIMEOUT_MS', () => {
  it('bounds every PostgreSQL wait: 5000 ms unless DATABASE_TIMEOUT_MS or --database-timeout-ms says otherwise', () => {
    const env = { DATABASE_URL: POSTGRES, DATABASE_TIMEOUT_MS: '1500' }
    expect(loadSettings(env).storage).toMatchObject({ timeoutMs: 1500 })
    expect(loadSettings(env, ['--database-timeout-ms', '200']).storage).toMatchObject({
      timeoutMs: 200,
    })
    expect(refusal({ DATABASE_URL: POSTGRES, DATABASE_TIMEOUT_MS: '0' })).toBe(
      'DATABASE_TIMEOUT_MS "0" is not a whole number from 1 to 2147483647.',
    )
  })

  it.each(['0', '-1', '2.5', 'ten', '1001', ''])(
    'refuses a PostgreSQL pool size of "%s"',
    (value) => {
      expect(refusal({ DATABASE_URL: POSTGRES, DATABASE_POOL_SIZE: value })).toBe(
        `DATABASE_POOL_SIZE "${value}" is not a whole number from 1 to 1000.`,
      )
    },
  )

  it('is ignored with SQLite, even when it is not a number', () => {
    const settings = loadSettings({ DATABASE_URL: 'sqlite:/tmp/x.db', DATABASE_POOL_SIZE: 'abc' })
    expect(settings.storage).toEqual({ kind: 'sqlite', filename: '/tmp/x.db' })
    expect(settings).not.toHaveProperty('databasePoolSize')
    expect(loadSettings({}, ['--database-pool-size', 'abc']).storage.kind).toBe('sqlite')
  })
})

describe('DATABASE_DIRECT_URL', () => {
  it('is unset by default, and passed to PostgreSQL storage when set, by variable or flag', () => {
    expect(loadSettings({ DATABASE_URL: POSTGRES }).storage).not.toHaveProperty(
      'directUrl',
      expect.anything(),
    )
    const direct = 'postgres://tasklane@db-primary:5432/tasks'
    expect(
      loadSettings({ DATABASE_URL: POSTGRES, DATABASE_DIRECT_URL: direct }).storage,
    ).toMatchObject({ kind: 'postgres', url: POSTGRES, directUrl: direct })
    expect(
      loadSettings({ DATABASE_URL: POSTGRES }, ['--database-direct-url', direct]).storage,
    ).toMatchObject({ directUrl: direct })
  })

  it('refuses anything but a PostgreSQL URL, without repeating its password', () => {
    expect(
      refusal({ DATABASE_URL: POSTGRES, DATABASE_DIRECT_URL: 'mysql://app:pw@db/tasks' }),
    ).toBe(
      'DATABASE_DIRECT_URL "mysql://app:***@db/tasks" is not a postgres:// or postgresql:// URL.',
    )
  })

  it('is ignored with SQLite, even when it is not a URL', () => {
    const settings = loadSettings({ DATABASE_URL: 'sqlite:/tmp/x.db', DATABASE_DIRECT_URL: 'x' })
    expect(settings.storage).toEqual({ kind: 'sqlite', filename: '/tmp/x.db' })
  })

  it('is shown without its password', () => {
    const shown = printable(
      loadSettings({
        DATABASE_URL: POSTGRES,
        DATABASE_DIRECT_URL: 'postgres://app:hunter2@db-primary/tasks',
      }),
    )
    expect(shown.databaseDirectUrl).toBe('postgres://app:***@db-primary/tasks')
  })
})

describe('DATABASE_PREPARED_STATEMENTS', () => {
  it('is auto by default; on and off are passed to PostgreSQL storage', () => {
    expect(loadSettings({ DATABASE_URL: POSTGRES }).storage).toMatchObject({
      preparedStatements: 'auto',
    })
    for (const value of ['on', 'off'] as const) {
      expect(
        loadSettings({ DATABASE_URL: POSTGRES, DATABASE_PREPARED_STATEMENTS: value }).storage,
      ).toMatchObject({ preparedStatements: value })
    }
    expect(
      loadSettings({ DATABASE_URL: POSTGRES }, ['--database-prepared-statements', 'off']).storage,
    ).toMatchObject({ preparedStatements: 'off' })
  })

  it('refuses anything else, listing the values', () => {
    expect(refusal({ DATABASE_URL: POSTGRES, DATABASE_PREPARED_STATEMENTS: 'yes' })).toBe(
      'DATABASE_PREPARED_STATEMENTS "yes" is not one of auto, on, off.',
    )
  })

  it('is ignored with SQLite', () => {
    const settings = loadSettings({ DATABASE_PREPARED_STATEMENTS: 'maybe' })
    expect(settings.storage.kind).toBe('sqlite')
    expect(settings).not.toHaveProperty('databasePreparedStatements')
  })

  it('says in --help what each value is for, and that auto is the default', () => {
    const line = helpText()
      .split('\n')
      .find((row) => row.trimStart().startsWith('--database-prepared-statements '))
    expect(line).toMatch(/transaction-mode pooler/)
    expect(line).toMatch(/ Default: auto\.$/)
  })
})

describe('GROUP_COMMIT', () => {
  it('is on by default, and read as on/off, true/false or 1/0 in any case', () => {
    expect(loadSettings({}).groupCommit).toBe(true)
    for (const on of ['on', 'ON', 'true', '1'])
      expect(loadSettings({ GROUP_COMMIT: on }).groupCommit).toBe(true)
    for (const off of ['off', 'False', '0'])
      expect(loadSettings({ GROUP_COMMIT: off }).groupCommit).toBe(false)
  })

  it('refuses anything else', () => {
    expect(refusal({ GROUP_COMMIT: 'maybe' })).toBe('GROUP_COMMIT "maybe" is not on or off.')
  })

  it('says in --help that creates, changes and deletes all share commits', () => {
    const line = helpText()
      .split('\n')
      .find((row) => row.includes('GROUP_COMMIT'))
    expect(line).toMatch(/creates, changes and deletes that arrive together share one commit/)
    expect(line).toMatch(/off: one commit per write/)
  })
})

describe('CORS_ORIGINS', () => {
  it('is off by default and read as a comma-separated list of origins, or *', () => {
    expect(loadSettings({}).corsOrigins).toEqual([])
    expect(
      loadSettings({ CORS_ORIGINS: ' https://a.example, http://localhost:5173 ,' }).corsOrigins,
    ).toEqual(['https://a.example', 'http://localhost:5173'])
    expect(
      loadSettings({ CORS_ORIGINS: 'https://a.example' }, ['--cors-origins', '*']).corsOrigins,
    ).toEqual(['*'])
  })

  it.each(['https://a.example/path', 'a.example', 'https://a.example/'])(
    'refuses the entry "%s", which is not a bare origin',
    (entry) => {
      expect(refusal({ CORS_ORIGINS: `https://ok.example,${entry}` })).toBe(
        `CORS_ORIGINS entry "${entry}" is not an origin such as https://app.example.com.`,
      )
    },
  )
})

describe('API_TOKEN', () => {
  it('is unset by default and when empty', () => {
    expect(loadSettings({}).apiToken).toBeUndefined()
    expect(loadSettings({ API_TOKEN: '' }).apiToken).toBeUndefined()
  })

  it('refuses a token with spaces or non-ASCII characters without repeating it', () => {
    for (const token of ['two words', 'clé']) {
      expect(refusal({ API_TOKEN: token })).toBe(
        'API_TOKEN is not visible ASCII characters without spaces.',
      )
    }
  })
})

describe('helpText', () => {
  const settings = Object.entries(SettingsSchema.properties)

  it('lists every setting of the schema with its flag, variable, default and meaning', () => {
    const help = helpText()
    expect(help).toMatch(/^Usage: tasklane-server \[options\]\n/)
    for (const [key, schema] of settings) {
      const env = envName(key as keyof typeof SettingsSchema.properties)
      const flag = `--${env.toLowerCase().replaceAll('_', '-')}`
      const line = help.split('\n').find((row) => row.trimStart().startsWith(`${flag} `))
      expect(line, `${key} in --help`).toBeDefined()
      expect(line).toContain(` ${env} `)
      expect(line).toContain(schema.description as string)
      expect(line).toMatch(/ Default: .+\.$/)
    }
    expect(help).toContain('-h, --help')
    expect(help).toContain('-v, -V, --version')
  })

  it('says which routes stay public when API_TOKEN is set', () => {
    const line = helpText()
      .split('\n')
      .find((row) => row.includes('API_TOKEN'))
    for (const open of ['/ and /assets/*', '/health/*', '/openapi.json', '/docs', 'OPTIONS']) {
      expect(line).toContain(open)
    }
  })

  it('says how the default of MAX_CONNECTIONS is worked out, with the numbers the server uses', () => {
    expect(helpText()).toMatch(
      /--max-connections .* Default: the open-file limit \(ulimit -n\) less 64, and less the database's descriptors: 2 × DATABASE_POOL_SIZE \+ 1 on PostgreSQL, 18 on SQLite\.$/m,
    )
    // The numbers of the text are those the server subtracts.
    expect(RESERVED_DESCRIPTORS).toBe(64)
    expect(SQLITE_DESCRIPTORS).toBe(18)
    expect(postgresDescriptors(10)).toBe(21)
  })

  it('shows defaults as they are typed: on/off, (none), numbers', () => {
    const help = helpText()
    expect(help).toMatch(/--group-commit .* Default: on\.$/m)
    expect(help).toMatch(/--cors-origins .* Default: \(none\)\.$/m)
    expect(help).toMatch(/--api-token .* Default: \(none\)\.$/m)
    expect(help).toMatch(/--port .* Default: 3000\.$/m)
  })
})

describe('printable', () => {
  it('shows an SQLite database as its absolute path', () => {
    const shown = printable(loadSettings({ DATABASE_URL: 'sqlite:./data/t.db', INIT_CWD: CWD }))
    expect(shown.databaseUrl).toBe('/srv/tasklane/data/t.db')
  })

  it('masks the API token and the password of a database URL', () => {
    const shown = printable(
      loadSettings({ API_TOKEN: 'tl_secret', DATABASE_URL: 'postgres://app:hunter2@db/tasks' }),
    )
    expect(shown).toMatchObject({ apiToken: '***', databaseUrl: 'postgres://app:***@db/tasks' })
    expect(JSON.stringify(shown)).not.toMatch(/tl_secret|hunter2/)
  })

  it.each([
    ['redis://:s3cret@cache:6379/2', 'redis://:***@cache:6379/2'],
    ['rediss://default:s3cret@cache:6380', 'rediss://default:***@cache:6380'],
    ['redis://cache:6379', 'redis://cache:6379'],
  ])('masks the password of RATE_LIMIT_REDIS_URL %s, with or without a user', (url, masked) => {
    expect(printable(loadSettings({ RATE_LIMIT_REDIS_URL: url })).rateLimitRedisUrl).toBe(masked)
  })

  it('masks a password given as a query parameter of a database URL', () => {
    const shown = printable(
      loadSettings({ DATABASE_URL: 'postgres://db/tasks?sslmode=require&password=s3cret&x=1' }),
    )
    expect(shown.databaseUrl).toBe('postgres://db/tasks?sslmode=require&password=***&x=1')
  })
})

describe('RATE_LIMIT_REDIS_URL', () => {
  it('is unset by default, and read as a redis:// or rediss:// URL', () => {
    expect(loadSettings({}).rateLimitRedisUrl).toBeUndefined()
    expect(loadSettings({ RATE_LIMIT_REDIS_URL: '' }).rateLimitRedisUrl).toBeUndefined()
    expect(loadSettings({ RATE_LIMIT_REDIS_URL: 'redis://127.0.0.1:6379' }).rateLimitRedisUrl).toBe(
      'redis://127.0.0.1:6379',
    )
  })

  it('refuses anything else, without repeating a value that may hold a password', () => {
    expect(() => loadSettings({ RATE_LIMIT_REDIS_URL: 'http://:pw@cache:6379' })).toThrow(
      'RATE_LIMIT_REDIS_URL "http://:***@cache:6379" is not a redis:// or rediss:// URL.',
    )
  })
})

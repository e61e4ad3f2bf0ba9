import { Type } from '@sinclair/typebox'
import { setting } from './setting.js'

/** The longest delay setTimeout takes (2^31 - 1 ms); a larger one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647

/** Where tasks are stored when DATABASE_URL is not set (relative to the starting directory). */
export const DEFAULT_DATABASE_FILE = 'data/tasklane.db'

/**
 * The settings of the database: where tasks are stored (an SQLite file or PostgreSQL) and,
 * on PostgreSQL, the pool, its timeouts, a direct URL and prepared statements.
 */
export const databaseSettings = {
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
      maximum: MAX_TIMER_MS,
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
}

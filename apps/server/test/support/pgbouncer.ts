import { execFileSync } from 'node:child_process'
import {
  type PgBouncer,
  pgbouncerInstalled,
  startPgBouncer as start,
  stopAllPgBouncers,
} from '@tasklane/testing/pgbouncer'
import { commandExists } from '@tasklane/testing/requirements'
import pg from 'pg'
import { POSTGRES_URL } from './postgres.js'

export { stopAllPgBouncers }

/**
 * Installs Debian's PgBouncer when it is missing and this process may (root, apt-get
 * there); true when it is installed afterwards.
 */
export function ensurePgBouncer(): boolean {
  if (pgbouncerInstalled()) return true
  if (process.getuid?.() !== 0 || !commandExists('apt-get')) return false
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '-qq', 'pgbouncer'], { env, stdio: 'ignore' })
  try {
    install()
  } catch {
    execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore' })
    install()
  }
  return pgbouncerInstalled()
}

/** A PgBouncer of the test's own, in transaction mode, in front of the tests' PostgreSQL. */
export interface TestPgBouncer extends Omit<PgBouncer, 'url'> {
  /** A URL through it: as `user` (any PostgreSQL role: auth_query), to `database`. */
  url(user?: string, database?: string): string
  /** Runs a command on its admin console (SHOW POOLS, PAUSE, RESUME, KILL, RELOAD…). */
  admin(command: string): Promise<Record<string, unknown>[]>
}

/**
 * Starts PgBouncer (transaction mode) in front of POSTGRES_URL's server: trust auth for
 * any role there (auth_user/auth_query: each test file connects as a role of its own, see
 * test-database.ts), every database name passed through. `settings` override or add
 * [pgbouncer] settings, `databases` replaces the [databases] section.
 */
export async function startPgBouncer(
  settings: Record<string, string | number> = {},
  databases?: Record<string, string>,
): Promise<TestPgBouncer> {
  const target = new URL(POSTGRES_URL)
  const admin = decodeURIComponent(target.username) || 'postgres'
  const pgbouncer = await start({
    databases: databases ?? { '*': `host=${target.hostname} port=${target.port || 5432}` },
    admin,
    settings: {
      auth_user: admin,
      max_client_conn: 1000,
      default_pool_size: 10,
      // Idle server connections go soon: test files' pools come and go, and other test
      // runs share the server's max_connections.
      server_idle_timeout: 5,
      query_wait_timeout: 30,
      ...settings,
    },
  })
  const url = (user = admin, database = target.pathname.slice(1) || 'test') =>
    pgbouncer.url(user, database)
  return {
    ...pgbouncer,
    url,
    async admin(command) {
      const client = new pg.Client({ connectionString: url(admin, 'pgbouncer') })
      await client.connect()
      try {
        return (await client.query(command)).rows
      } finally {
        await client.end()
      }
    },
  }
}

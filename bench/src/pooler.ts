import { pgbouncerInstalled, startPgBouncer, stopAllPgBouncers } from '@tasklane/testing/pgbouncer'
import type { ServerProcess } from './processes.js'

/** Server connections PgBouncer opens: as many as the direct server's pool holds (DATABASE_POOL_SIZE). */
const POOL_SIZE = 10

/** A libpq connection-string value, quoted. */
const quoted = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`

/**
 * The scratch database at `url` again, through a PgBouncer of the run's own in transaction
 * mode, with a tasklane server on it as many instances run behind a pooler: DATABASE_URL
 * through PgBouncer, DATABASE_DIRECT_URL straight to PostgreSQL (the feed's LISTEN and the
 * migrations). PgBouncer logs in to PostgreSQL with the URL's user and password; the server
 * logs in to PgBouncer as that user, trusted. Resolves with why not when PgBouncer is
 * missing.
 */
export async function pooledPostgres(
  url: string,
  startServer: (databaseUrl: string, env: Record<string, string>) => Promise<ServerProcess>,
): Promise<{ server: ServerProcess; stop: () => Promise<void> } | string> {
  if (!pgbouncerInstalled()) {
    return 'PostgreSQL through PgBouncer not measured: apt-get install pgbouncer to include it.'
  }
  const target = new URL(url)
  const user = decodeURIComponent(target.username) || 'postgres'
  const password = decodeURIComponent(target.password)
  const server = [
    `host=${target.hostname}`,
    `port=${target.port || 5432}`,
    `dbname=${decodeURIComponent(target.pathname.slice(1))}`,
    `user=${quoted(user)}`,
    ...(password === '' ? [] : [`password=${quoted(password)}`]),
  ].join(' ')
  const pgbouncer = await startPgBouncer({
    databases: { tasklane: server },
    admin: user,
    settings: { default_pool_size: POOL_SIZE, max_client_conn: 1000 },
  })
  try {
    const started = await startServer(pgbouncer.url(user, 'tasklane'), {
      DATABASE_DIRECT_URL: url,
    })
    return { server: started, stop: stopAllPgBouncers }
  } catch (error) {
    await stopAllPgBouncers()
    throw error
  }
}

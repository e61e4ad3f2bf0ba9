import pg from 'pg'

/**
 * How the server's connections to PostgreSQL behave. `session`: each is a session of its
 * own (straight to PostgreSQL, or a pooler in session mode): statements are prepared once
 * per connection, timeouts set once at login, and a connection can LISTEN. `transaction`:
 * they go through a transaction-mode pooler (PgBouncer, Supavisor, RDS Proxy), which may
 * send each transaction to another server connection: nothing may outlive a transaction.
 */
export type ConnectionMode = 'session' | 'transaction'

/** DATABASE_PREPARED_STATEMENTS: `on` means sessions, `off` a transaction pooler, `auto` detects. */
export type PreparedStatements = 'auto' | 'on' | 'off'

/**
 * The mode of `url`'s connections, as `setting` says or, `auto`, as detected: PostgreSQL
 * tells a client at login the process id of the backend that serves it (BackendKeyData), and
 * a direct connection's `pg_backend_pid()` is that id. A pooler cannot know at login which
 * backend will serve each transaction, so it announces an id of its own making (PgBouncer's
 * is random). A session-mode pooler is detected as a transaction pooler too: correct, if a
 * little slower; `on` says otherwise.
 */
export async function connectionMode(
  url: string,
  setting: PreparedStatements,
  timeoutMs: number,
): Promise<ConnectionMode> {
  if (setting !== 'auto') return setting === 'on' ? 'session' : 'transaction'
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    application_name: 'tasklane',
  })
  client.on('error', () => {})
  try {
    await client.connect()
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid')
    const announced = (client as pg.Client & { processID?: number }).processID
    return rows[0]?.pid === announced ? 'session' : 'transaction'
  } finally {
    await client.end().catch(() => {})
  }
}

import pg from 'pg'

/** Fails the run at once, saying what to do, when PostgreSQL is not there. */
export default async function setup(): Promise<void> {
  const url = process.env.TASKLANE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 })
  try {
    await client.connect()
    await client.query('select 1')
  } catch (error) {
    throw new Error(
      `The server-postgres tests need PostgreSQL at ${url} (set TASKLANE_TEST_POSTGRES_URL, or start it: pg_ctlcluster --skip-systemctl-redirect 15 main start): ${(error as Error).message}`,
    )
  } finally {
    await client.end().catch(() => {})
  }
}

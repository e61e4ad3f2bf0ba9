import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import pg from 'pg'

/** The PostgreSQL server the tests use (the local one, trust auth); its `test` database. */
export const POSTGRES_URL =
  process.env.TASKLANE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** Why `url` cannot be used right now, or undefined when a query works. */
export async function postgresProblem(url: string = POSTGRES_URL): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 })
  try {
    await client.connect()
    await client.query('select 1')
    return undefined
  } catch (error) {
    return (error as Error).message || String(error)
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * Makes the local PostgreSQL usable when it can: a Debian cluster that is installed but
 * down is started (`pg_ctlcluster`, as root). Resolves to why it is still not usable, or
 * undefined when it is.
 */
export async function ensurePostgres(url: string = POSTGRES_URL): Promise<string | undefined> {
  const problem = await postgresProblem(url)
  if (problem === undefined || process.env.TASKLANE_TEST_POSTGRES_URL !== undefined) return problem
  let versions: string[]
  try {
    versions = readdirSync('/etc/postgresql').sort((a, b) => Number(a) - Number(b))
  } catch {
    return `${problem} (no PostgreSQL cluster in /etc/postgresql to start)`
  }
  const version = versions.at(-1)
  try {
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', String(version), 'main', 'start'], {
      stdio: 'ignore',
    })
  } catch {
    // Already starting, or not ours to start: the checks below say which.
  }
  for (let i = 0; i < 30; i++) {
    if ((await postgresProblem(url)) === undefined) return undefined
    await new Promise((resolve) => setTimeout(resolve, 1_000))
  }
  return `${await postgresProblem(url)} (after pg_ctlcluster ${version} main start)`
}

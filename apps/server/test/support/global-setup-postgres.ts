import { POSTGRES_URL, postgresProblem } from './postgres.js'

/**
 * Fails the run at once, saying what to do, when PostgreSQL is not there (the root
 * vitest.config.ts leaves this project out when it cannot be reached or started; this
 * catches a `--project server-postgres` run, or a server that went away since).
 */
export default async function setup(): Promise<void> {
  const problem = await postgresProblem()
  if (problem !== undefined) {
    throw new Error(
      `The server-postgres tests need PostgreSQL at ${POSTGRES_URL} (set TASKLANE_TEST_POSTGRES_URL, or start it: pg_ctlcluster --skip-systemctl-redirect 15 main start): ${problem}`,
    )
  }
}

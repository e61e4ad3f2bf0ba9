import { cpSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * The build that the multi-instance tests run. A copy of dist/, taken before any
 * test starts: a test that rebuilds dist/ (`pnpm start`) cannot pull it from under
 * processes being spawned. It stays inside apps/server so its imports still resolve.
 */
export const INSTANCE_MAIN_JS = join(SERVER_DIR, 'node_modules/.cache/tasklane-test/main.js')

/** Runs after global-setup.ts has built dist/: checks PostgreSQL, copies the build. */
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
  // The whole of dist/: main.js may load files beside it.
  rmSync(dirname(INSTANCE_MAIN_JS), { recursive: true, force: true })
  cpSync(join(SERVER_DIR, 'dist'), dirname(INSTANCE_MAIN_JS), { recursive: true })
}

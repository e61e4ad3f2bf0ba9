// Relative imports: Vitest bundles its config, and Node cannot load the TypeScript of a
// workspace package that it would leave outside the bundle.

import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { ensurePostgres, POSTGRES_URL } from './apps/server/test/support/postgres.js'
import { commandExists, systemHas } from './testing/src/requirements.js'
import { SUITE } from './vitest.suites.js'

/**
 * The projects that are slow as a whole, left out of `pnpm test` (see vitest.suites.ts):
 * the server suite again on PostgreSQL (server-postgres) and through PgBouncer
 * (server-pgbouncer) when there are those to use, the client as a packed package
 * (client-package) and the release (release).
 */
async function slowProjects(): Promise<string[]> {
  // A local cluster that is installed but down is started first; without one, that project
  // is skipped with one loud line (a failure under TASKLANE_REQUIRE_ALL=1, as in CI).
  const postgresProblem = await ensurePostgres()
  const withPostgres = systemHas(
    `PostgreSQL at ${POSTGRES_URL} (${postgresProblem})`,
    postgresProblem === undefined,
    'apt-get install postgresql, with trust auth and a "test" database on 127.0.0.1:5432, or set TASKLANE_TEST_POSTGRES_URL',
  )
  // And a third time through PgBouncer in transaction mode, which that project starts itself.
  const withPgBouncer =
    withPostgres &&
    systemHas(
      'PgBouncer',
      existsSync('/usr/sbin/pgbouncer') || commandExists('pgbouncer'),
      'apt-get install pgbouncer (bash .ci/run does)',
    )
  return [
    ...(withPostgres ? ['apps/server/vitest.postgres.config.ts'] : []),
    ...(withPgBouncer ? ['apps/server/vitest.pgbouncer.config.ts'] : []),
    'packages/client/vitest.package.config.ts',
    'release',
  ]
}

// Vitest 4 replaced vitest.workspace.ts with `test.projects`: every package and app with a
// vitest.config.ts is one project, each holding quick and slow (`*.slow.test.ts`) files.
export default defineConfig({
  test: {
    // The quick suite's files wait on other processes (their servers, the CLI, Chromium)
    // more than they compute: a worker per core, where Vitest's default leaves one idle (one
    // file at a time on 2 cores). The rest keep Vitest's default: two PostgreSQL files side
    // by side on 2 cores have failed to find the schema they had just created (not
    // understood yet).
    ...(SUITE === 'quick' ? { maxWorkers: Math.max(2, availableParallelism()) } : {}),
    projects: ['packages/*', 'apps/*', 'bench', ...(SUITE === 'quick' ? [] : await slowProjects())],
  },
})

// Relative imports: Vitest bundles its config, and Node cannot load the TypeScript of a
// workspace package that it would leave outside the bundle.

import { defineConfig } from 'vitest/config'
import { ensurePostgres, POSTGRES_URL } from './apps/server/test/support/postgres.js'
import { systemHas } from './testing/src/requirements.js'

// The server suite runs on PostgreSQL too when there is one to use: a local cluster that is
// installed but down is started first; without one, that project is skipped with one loud
// line (a failure under TASKLANE_REQUIRE_ALL=1, as in CI).
const postgresProblem = await ensurePostgres()
const withPostgres = systemHas(
  `PostgreSQL at ${POSTGRES_URL} (${postgresProblem})`,
  postgresProblem === undefined,
  'apt-get install postgresql, with trust auth and a "test" database on 127.0.0.1:5432, or set TASKLANE_TEST_POSTGRES_URL',
)

// Vitest 4 replaced vitest.workspace.ts with `test.projects`: every package and app
// with a vitest.config.ts is one project, and `pnpm test` runs them all.
export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'apps/*',
      // The server suite again, on the local PostgreSQL server (server-postgres).
      ...(withPostgres ? ['apps/server/vitest.postgres.config.ts'] : []),
      'bench',
      'release',
    ],
  },
})

import { configDefaults, defineConfig } from 'vitest/config'
import { fromSource } from '../../vitest.source.js'

// The whole server suite again, quick and slow files alike, on the local PostgreSQL server:
// each test file creates its own schema and drops it at the end (test/support/test-database.ts).
// A slow project as a whole: `pnpm test:slow`, never `pnpm test`.
export default defineConfig({
  ...fromSource,
  test: {
    name: 'server-postgres',
    include: ['test/**/*.test.ts'],
    // These drive the server's SQLite file itself (kill -9, PRAGMA integrity_check, WAL);
    // their PostgreSQL counterparts are in multi-instance.slow.test.ts.
    exclude: [
      ...configDefaults.exclude,
      'test/crash.slow.test.ts',
      'test/shutdown.slow.test.ts',
      'test/idempotency-crash.slow.test.ts',
    ],
    env: { TASKLANE_TEST_DATABASE: 'postgres' },
    // The build of vitest.config.ts, then a check that PostgreSQL is up.
    globalSetup: ['test/support/global-setup.ts', 'test/support/global-setup-postgres.ts'],
    // As in vitest.config.ts: past the tests' own waits of up to 10 s.
    testTimeout: 15_000,
  },
})

import { defineConfig, mergeConfig } from 'vitest/config'
import sqlite from './vitest.config.js'

// The whole server suite again, on the local PostgreSQL server: each test file creates
// its own schema and drops it at the end (test/support/test-database.ts).
export default mergeConfig(
  sqlite,
  defineConfig({
    test: {
      name: 'server-postgres',
      env: { TASKLANE_TEST_DATABASE: 'postgres' },
      // After the build of vitest.config.ts: checks that PostgreSQL is up.
      globalSetup: ['test/support/global-setup-postgres.ts'],
      // These drive the server's SQLite file itself (kill -9, PRAGMA integrity_check, WAL);
      // their PostgreSQL counterparts are in multi-instance.test.ts.
      exclude: ['test/crash.test.ts', 'test/shutdown.test.ts', 'test/idempotency-crash.test.ts'],
    },
  }),
)

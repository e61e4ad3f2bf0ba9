import { defineConfig, mergeConfig } from 'vitest/config'
import postgres from './vitest.postgres.config.js'

// The whole PostgreSQL suite a third time, through a PgBouncer in transaction mode that the
// run starts (test/support/global-setup-pgbouncer.ts): each test file's servers reach their
// schema only through it (test/support/test-database.ts), as stateless instances do behind a
// pooler; tests that need a session give a server DATABASE_DIRECT_URL as well.
export default mergeConfig(
  postgres,
  defineConfig({
    test: {
      name: 'server-pgbouncer',
      env: { TASKLANE_TEST_POOLER: 'pgbouncer' },
      globalSetup: ['test/support/global-setup-pgbouncer.ts'],
    },
  }),
)

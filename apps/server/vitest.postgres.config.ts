import { defineConfig, mergeConfig } from 'vitest/config'
import sqlite from './vitest.config.js'

// The whole server suite again, on the local PostgreSQL server: each test file creates
// its own schema and drops it at the end (test/helpers.ts).
export default mergeConfig(
  sqlite,
  defineConfig({
    test: {
      name: 'server-postgres',
      env: { TASKLANE_TEST_DATABASE: 'postgres' },
      // After the build of vitest.config.ts: checks the server is up, copies the build.
      globalSetup: ['test/global-setup-postgres.ts'],
    },
  }),
)

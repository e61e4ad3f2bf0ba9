import { defineConfig } from 'vitest/config'
import { fromSource } from '../../vitest.source.js'
import { testFiles } from '../../vitest.suites.js'

export default defineConfig({
  ...fromSource,
  test: {
    // The same suite runs again on PostgreSQL: vitest.postgres.config.ts.
    name: 'server-sqlite',
    ...testFiles(),
    // Builds dist/ and copies it for the tests that run the server as a real process.
    globalSetup: ['test/support/global-setup.ts'],
  },
})

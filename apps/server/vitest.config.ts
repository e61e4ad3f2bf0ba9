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
    // The tests' own waits (a feed's events, a server's line) allow up to 10 s; Vitest's 5 s
    // default cut one short on a loaded 2-core machine (a feed test on PostgreSQL, Node 24).
    testTimeout: 15_000,
  },
})

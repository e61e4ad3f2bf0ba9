import { defineConfig } from 'vitest/config'
import { fromSource } from '../../vitest.source.js'
import { testFiles } from '../../vitest.suites.js'

export default defineConfig({
  ...fromSource,
  test: {
    name: 'cli',
    ...testFiles(),
    // Builds the CLI (and the client it imports, when its dist/ is missing): the tests run
    // the built `tasklane` as a child process, as a user runs it.
    globalSetup: ['test/support/global-setup.ts'],
    // Every file starts a server from its sources and runs the CLI as processes.
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
})

import { defineConfig } from 'vitest/config'
import { fromSource } from '../../vitest.source.js'
import { testFiles } from '../../vitest.suites.js'

export default defineConfig({
  // The tests drive the page with the client as well, as another user of the server would.
  ...fromSource,
  test: {
    name: 'web',
    ...testFiles(),
    // Builds the page once (vite build), so that the tests run on a fresh clone.
    globalSetup: ['test/global-setup.ts'],
    // One Chromium at a time: each file checks that it left nothing in the run's TMPDIR,
    // and two browsers on 2 cores slow each other past the tests' timeouts.
    fileParallelism: false,
  },
})

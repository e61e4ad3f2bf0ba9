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
    // Files run beside the other projects' files (with `fileParallelism: false` Vitest would
    // hold them all back to a group of their own, after everything else); one Chromium at a
    // time all the same, by the turn each file takes (test/support/browser-turn.ts).
  },
})

import { defineConfig } from 'vitest/config'
import { fromSource } from '../vitest.source.js'

// The packages as published: packed by npm and by pnpm, and released to a real registry.
// Slow (the registry test compiles better-sqlite3 for the installed server), so one run.
export default defineConfig({
  ...fromSource,
  test: {
    name: 'release',
    include: ['test/**/*.test.ts'],
    // Each file packs the whole workspace; two at once would build the same dist/ twice.
    fileParallelism: false,
    // After every other project: packing rebuilds dist/ in place (prepack), which
    // `pnpm start` in the server's shutdown test also builds and runs, and its compiling
    // would slow the timing-sensitive process tests.
    sequence: { groupOrder: 1 },
  },
})

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
  },
})

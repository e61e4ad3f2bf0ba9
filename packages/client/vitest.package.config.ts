import { defineConfig } from 'vitest/config'
import { fromSource } from '../../vitest.source.js'

// The client as published (packed, installed with npm, on Bun and Deno, in Chromium, its
// size): in the slow suite as a whole (`pnpm test:slow`), as it packs first.
export default defineConfig({
  ...fromSource,
  test: {
    name: 'client-package',
    include: ['test/package/**/*.test.ts'],
    // Builds and packs the contract and the client once: the package tests check what
    // would be published, not the workspace sources.
    globalSetup: ['test/package/global-setup.ts'],
  },
})

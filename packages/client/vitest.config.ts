import { defineConfig } from 'vitest/config'
import { fromSource } from '../../vitest.source.js'

export default defineConfig({
  ...fromSource,
  test: {
    name: 'client',
    include: ['test/**/*.test.ts'],
    // Builds and packs the contract and the client once: the package tests check what
    // would be published, not the workspace sources.
    globalSetup: ['test/package/global-setup.ts'],
  },
})

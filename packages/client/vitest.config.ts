import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'client',
    include: ['test/**/*.test.ts'],
    // Builds and packs the contract and the client once: the package tests check what
    // would be published, not the workspace sources.
    globalSetup: ['test/package/global-setup.ts'],
  },
})

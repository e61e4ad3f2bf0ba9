import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'web',
    include: ['test/**/*.test.ts'],
    // Builds the page once (vite build), so that the tests run on a fresh clone.
    globalSetup: ['test/global-setup.ts'],
  },
})

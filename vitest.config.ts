import { defineConfig } from 'vitest/config'

// Vitest 4 replaced vitest.workspace.ts with `test.projects`: every package and app
// with a vitest.config.ts is one project, and `pnpm test` runs them all.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
  },
})

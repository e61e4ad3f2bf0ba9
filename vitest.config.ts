import { defineConfig } from 'vitest/config'

// Vitest 4 replaced vitest.workspace.ts with `test.projects`: every package and app
// with a vitest.config.ts is one project, and `pnpm test` runs them all.
export default defineConfig({
  test: {
    // The server suite runs twice: on SQLite (apps/server/vitest.config.ts) and on the
    // local PostgreSQL server (apps/server/vitest.postgres.config.ts).
    projects: ['packages/*', 'apps/*', 'apps/server/vitest.postgres.config.ts', 'bench', 'release'],
  },
})

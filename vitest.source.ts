import type { ViteUserConfig } from 'vitest/config'

/**
 * Tests run the workspace packages from their TypeScript sources: the "@tasklane/source"
 * export condition, which the published packages carry but no consumer sets (their
 * `import` and `require` conditions point at dist/). Vite's default conditions follow it.
 */
export const fromSource: ViteUserConfig = {
  resolve: { conditions: ['@tasklane/source', 'module', 'browser', 'development|production'] },
  ssr: {
    resolve: { conditions: ['@tasklane/source', 'module', 'node', 'development|production'] },
  },
}

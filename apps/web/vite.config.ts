import { defineConfig } from 'vite'

// The page is bundled into dist/: index.html and hashed files under dist/assets/, which
// the server serves at / and /assets/ (apps/server/src/plugins/web-page.ts).
export default defineConfig({
  // The client SDK is bundled from its TypeScript sources (the "@tasklane/source" export
  // condition, as the server bundles the contract), so the page builds on a fresh clone
  // without building the client first.
  resolve: { conditions: ['@tasklane/source', 'module', 'browser', 'development|production'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every file stays a file: no data: URL and no inline script (the page's CSP allows neither).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
})

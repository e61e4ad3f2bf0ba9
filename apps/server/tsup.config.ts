import { defineConfig } from 'tsup'

export default defineConfig({
  // The server, and the SQLite writer thread's entry, which Node loads by path beside it.
  entry: { main: 'src/main.ts', 'sqlite-worker': 'src/storage/sqlite/worker.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // Overwrite rather than empty dist/ (a running test may be starting dist/main.js); the
  // build that is packed (prepack) starts from an empty dist/, so no stale chunk ships.
  clean: false,
  sourcemap: true,
  // The contract is bundled in, from its TypeScript sources (the "@tasklane/source" export
  // condition), so the server builds without building the contract first.
  noExternal: ['@tasklane/contract'],
  esbuildOptions(options) {
    options.conditions = ['@tasklane/source']
  },
})

import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // Overwrite rather than empty dist/: a running test may be starting dist/main.js.
  clean: false,
  sourcemap: true,
  // The contract is a workspace package written in TypeScript: bundle it in.
  noExternal: ['@tasklane/contract'],
  // The SQLite write worker is plain JavaScript that Node loads by path: ship it as is.
  onSuccess: 'cp src/db/sqlite-worker.mjs dist/',
})

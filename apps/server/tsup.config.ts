import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: true,
  // The contract is a workspace package written in TypeScript: bundle it in.
  noExternal: ['@tasklane/contract'],
})

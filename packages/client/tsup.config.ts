import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // Only types come from the contract; nothing of TypeBox reaches the bundle.
  external: ['@tasklane/contract'],
})

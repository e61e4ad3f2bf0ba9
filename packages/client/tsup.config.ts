import { defineConfig } from 'tsup'

export default defineConfig({
  // Two entry points: the default one stays free of TypeBox; `validate` brings it in.
  entry: ['src/index.ts', 'src/validate.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // The contract and TypeBox are dependencies, installed beside the client, never bundled.
  external: ['@tasklane/contract', '@sinclair/typebox'],
})

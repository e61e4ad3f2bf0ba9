import { defineConfig } from 'tsup'

export default defineConfig({
  // The default entry point stays free of TypeBox, which `validate` brings in, and of live
  // copies of listings, which `live` brings in.
  entry: ['src/index.ts', 'src/validate.ts', 'src/live.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // The contract and TypeBox are dependencies, installed beside the client, never bundled.
  external: ['@tasklane/contract', '@sinclair/typebox'],
})

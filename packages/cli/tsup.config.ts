import { defineConfig } from 'tsup'

export default defineConfig({
  // One executable file: the shebang in src/main.ts makes tsup mark it executable.
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: true,
  // The client is a dependency, installed beside the CLI (its dist/, as published), never bundled.
  external: ['@tasklane/client'],
})

import { defineConfig } from 'vitest/config'

// Unit tests of the benchmark's arithmetic, goals, report and chart: no timings asserted.
export default defineConfig({
  test: { name: 'bench', include: ['test/**/*.test.ts'] },
})

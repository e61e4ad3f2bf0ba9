import { defineConfig } from 'vitest/config'
import { fromSource } from '../vitest.source.js'
import { testFiles } from '../vitest.suites.js'

// Unit tests of the benchmark's arithmetic, goals, report and chart: no timings asserted.
export default defineConfig({
  ...fromSource,
  test: { name: 'bench', ...testFiles() },
})

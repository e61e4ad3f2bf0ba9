import { defineConfig } from 'vitest/config'
import { fromSource } from '../../vitest.source.js'
import { testFiles } from '../../vitest.suites.js'

export default defineConfig({
  ...fromSource,
  test: {
    name: 'contract',
    ...testFiles(),
  },
})

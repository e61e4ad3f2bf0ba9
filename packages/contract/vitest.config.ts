import { defineConfig } from 'vitest/config'
import { fromSource } from '../../vitest.source.js'

export default defineConfig({
  ...fromSource,
  test: {
    name: 'contract',
    include: ['test/**/*.test.ts'],
  },
})

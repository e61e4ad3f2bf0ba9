import { defineConfig } from 'vitest/config'
import { fromSource } from '../../vitest.source.js'
import { testFiles } from '../../vitest.suites.js'

const { include, exclude } = testFiles()

export default defineConfig({
  ...fromSource,
  test: {
    name: 'client',
    include,
    // The package as published is a project of its own (vitest.package.config.ts).
    exclude: [...exclude, 'test/package/**'],
    // Each e2e file starts its servers from sources (tsx) before its tests: on two busy
    // cores that takes longer than the default 10 s.
    hookTimeout: 60_000,
  },
})

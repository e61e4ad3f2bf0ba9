#!/usr/bin/env node
// Size budget of the default entry point: what a bundler adds to an app that imports
// `@tasklane/client`, minified and gzipped. Run after the build; exits 1 over budget.
// `node scripts/size.mjs [package directory]` (default: this package) measures its dist/.
import { resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

/** The budget for `import ... from '@tasklane/client'`, in bytes (min+gzip). */
export const BUDGET = 4096

/** Bundles and minifies `entry` as an app's bundler would; returns min and min+gzip bytes. */
export async function measure(entry) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // A dist/ unpacked elsewhere finds its peers (the contract, TypeBox) in this package's
    // node_modules; the contract from its sources, whether or not it was built.
    nodePaths: [new URL('../node_modules', import.meta.url).pathname],
    conditions: ['@tasklane/source'],
  })
  const code = result.outputFiles[0].contents
  return {
    min: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    inputs: Object.keys(result.metafile.inputs),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname, 'dist')
  const { min, gzip, inputs } = await measure(resolve(dist, 'index.js'))
  const typebox = inputs.filter((input) => input.includes('typebox'))
  console.log(
    `@tasklane/client default entry: ${min} B minified, ${gzip} B min+gzip (budget ${BUDGET} B)`,
  )
  const validate = await measure(resolve(dist, 'validate.js'))
  console.log(`@tasklane/client/validate (TypeBox included): ${validate.gzip} B min+gzip`)
  if (typebox.length > 0) {
    console.error(`TypeBox must not be in the default bundle: ${typebox.join(', ')}`)
    process.exit(1)
  }
  if (gzip > BUDGET) {
    console.error(`Over budget by ${gzip - BUDGET} B.`)
    process.exit(1)
  }
}

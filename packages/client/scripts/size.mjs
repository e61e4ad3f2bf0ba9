#!/usr/bin/env node
// Size budget of the default entry point: what a bundler adds to an app that imports
// `@tasklane/client`, minified and gzipped. Run after the build; exits 1 over budget.
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

/** The budget for `import ... from '@tasklane/client'`, in bytes (min+gzip). */
export const BUDGET = 4096

/** Bundles and minifies `entry` as an app's bundler would; returns min and min+gzip bytes. */
export async function measure(entry = new URL('../dist/index.js', import.meta.url).pathname) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0].contents
  return {
    min: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    inputs: Object.keys(result.metafile.inputs),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { min, gzip, inputs } = await measure()
  const typebox = inputs.filter((input) => input.includes('typebox'))
  console.log(
    `@tasklane/client default entry: ${min} B minified, ${gzip} B min+gzip (budget ${BUDGET} B)`,
  )
  const validate = await measure(new URL('../dist/validate.js', import.meta.url).pathname)
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

#!/usr/bin/env node
// Size budget of the default entry point: what a bundler adds to an app that imports
// `@tasklane/client`, minified and gzipped. Run after the build; exits 1 over budget.
// `node scripts/size.mjs [package directory]` (default: this package) measures its dist/.
import { resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

/**
 * The budget for `import ... from '@tasklane/client'`, in bytes (min+gzip). 4096 until the
 * client learnt to tell network failures from usage errors by each runtime's messages and
 * codes, to check header values and to bound what it buffers (4070 B before, 4914 B after);
 * 5120 until the task lifecycle (PATCH and DELETE with If-Match and generated keys,
 * 304, PreconditionFailedError, the feed's created/updated/deleted events) took it
 * from 4914 B to 5297 B; 5632 until lists and people (lists with their pager, members,
 * access tokens, me(), the `list` filter, the feed's reset, a token asked again after a
 * 401) took it from 5392 B to 6052 B; planning and history (moveTask, sort and the planning
 * filters, pages that follow whatever the Link names, taskHistory and history()) took it to
 * 6363 B, within the room 6400 left for them; webhooks (six methods, their types'
 * validation names, verifyWebhook on Web Crypto and its error) added about 750 B more.
 * 7168 leaves room, as before, for what the CLI and the web page still need.
 */
export const BUDGET = 7168

/**
 * The budget for `@tasklane/client/live` beyond the default entry, in bytes (min+gzip): an
 * app that shows live listings bundles both (LiveTasks and its page logic: 901 B, 969 B by
 * planning). 1024 until every sort and the planning filters (the server's order as a
 * comparator, a changed task moved in it, the new filters in the listing and the feed, the
 * TypeError for q and overdue) took it from 969 B to 1235 B (the feed's query built by
 * each caller, which took the default entry from 7102 B down to 7093 B; both: 8328 B).
 */
export const LIVE_BUDGET = 1248

/**
 * Bundles and minifies `entry` (with `also`, as one app importing both) as an app's bundler
 * would; returns min and min+gzip bytes.
 */
export async function measure(entry, also) {
  const result = await build({
    ...(also === undefined
      ? { entryPoints: [entry] }
      : {
          stdin: {
            contents: `export * from ${JSON.stringify(entry)}\nexport * from ${JSON.stringify(also)}`,
            resolveDir: '/',
          },
        }),
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
  // What an app pays for live listings: the two entries bundled together, less the default.
  const both = await measure(resolve(dist, 'index.js'), resolve(dist, 'live.js'))
  const live = both.gzip - gzip
  console.log(
    `@tasklane/client/live: ${live} B min+gzip beyond the default entry (budget ${LIVE_BUDGET} B; both: ${both.gzip} B)`,
  )
  if (typebox.length > 0) {
    console.error(`TypeBox must not be in the default bundle: ${typebox.join(', ')}`)
    process.exit(1)
  }
  if (gzip > BUDGET) {
    console.error(`Over budget by ${gzip - BUDGET} B.`)
    process.exit(1)
  }
  if (live > LIVE_BUDGET) {
    console.error(`@tasklane/client/live is over its budget by ${live - LIVE_BUDGET} B.`)
    process.exit(1)
  }
}

import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { ROOT } from '@tasklane/testing/packages'

const run = promisify(execFile)

/**
 * Builds the CLI for this run, and the client when a fresh clone has no build of it yet:
 * the built `tasklane` imports `@tasklane/client` from its dist/, as an install does.
 */
export default async function setup() {
  const tsup = join(ROOT, 'packages/cli/node_modules/.bin/tsup')
  if (!existsSync(join(ROOT, 'packages/client/dist/index.js'))) {
    await run(tsup, ['--silent'], { cwd: join(ROOT, 'packages/client') })
  }
  await run(tsup, ['--silent'], { cwd: join(ROOT, 'packages/cli') })
}

import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Builds dist/main.js once per run, for the tests that start real server processes. */
export default function setup(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..')
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/tsup/dist/cli-default.js'), '--silent'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
}

import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

const WEB_DIR = join(import.meta.dirname, '..')

/**
 * Builds the page once per run (`vite build` into apps/web/dist), where a server started
 * from its sources finds it (apps/server/src/web/root.ts): the tests need no earlier build.
 */
export default function setup(): void {
  const vite = join(WEB_DIR, 'node_modules/vite/bin/vite.js')
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: WEB_DIR,
    stdio: 'inherit',
  })
}

import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { BROWSER_TURN_ENV } from './support/browser-turn.js'

const WEB_DIR = join(import.meta.dirname, '..')

/**
 * Builds the page once per run (`vite build` into apps/web/dist), where a server started
 * from its sources finds it (apps/server/src/web/root.ts): the tests need no earlier build.
 *
 * The run's temporary files (the servers' databases, Chromium's profiles, anything a test
 * writes) go in a directory of its own, TMPDIR for the test files and every process they
 * start, which page.test.ts checks is empty once it has closed everything; removed at the
 * end whatever is in it. Beside it, the Chromium turn (support/browser-turn.ts).
 */
export default function setup(project: TestProject): () => void {
  const vite = join(WEB_DIR, 'node_modules/vite/bin/vite.js')
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: WEB_DIR,
    stdio: 'inherit',
  })
  const temporary = mkdtempSync(join(tmpdir(), 'tasklane-web-tests-'))
  // Beside TMPDIR, not in it: page.test.ts checks TMPDIR while it holds the turn.
  const turn = `${temporary}.browser-turn`
  project.config.env = { ...project.config.env, TMPDIR: temporary, [BROWSER_TURN_ENV]: turn }
  return () => {
    rmSync(temporary, { recursive: true, force: true })
    rmSync(turn, { recursive: true, force: true })
  }
}

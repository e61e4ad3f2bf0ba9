import { existsSync } from 'node:fs'
import { systemHas } from './requirements.js'

/** Debian's Chromium by default (Playwright's own download cannot work here). */
export const CHROMIUM = process.env.TASKLANE_TEST_CHROMIUM || '/usr/bin/chromium'

/**
 * Whether the browser tests can run: without Chromium they are skipped with one loud line,
 * or fail under TASKLANE_REQUIRE_ALL=1. Call it once per test file, at its top.
 */
export function checkChromium(): boolean {
  return systemHas(
    `Chromium (${CHROMIUM})`,
    existsSync(CHROMIUM),
    'apt-get install chromium (bash .ci/run does), or set TASKLANE_TEST_CHROMIUM to its path',
  )
}

/**
 * What playwright-core's `chromium.launch` needs to start it headless on a machine
 * without a display, sandbox or GPU, and without calling home.
 * @example
 * const browser = await chromium.launch(CHROMIUM_LAUNCH)
 */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
}

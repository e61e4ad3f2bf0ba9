import { spawnSync } from 'node:child_process'

/**
 * Set by CI (`.ci/run`): a test whose system requirement is missing fails instead of
 * being skipped, so CI never passes by skipping.
 */
export const REQUIRE_ALL_ENV = 'TASKLANE_REQUIRE_ALL'

/** True when `command` is on the PATH. */
export function commandExists(command: string): boolean {
  return (
    spawnSync('sh', ['-c', `command -v ${JSON.stringify(command)}`], { stdio: 'ignore' }).status ===
    0
  )
}

/**
 * Whether the tests that need `what` from the system can run. When it is missing they are
 * skipped with one loud line naming it and how to get it; with TASKLANE_REQUIRE_ALL=1 (CI)
 * the missing requirement is an error instead.
 *
 * @example
 * const hasNginx = systemHas('nginx', commandExists('nginx'), 'apt-get install nginx')
 * describe.runIf(hasNginx)('behind nginx', () => { ... })
 */
export function systemHas(what: string, available: boolean, howToGet: string): boolean {
  if (available) return true
  const line = `${what} is missing: its tests are SKIPPED. Get it with: ${howToGet}`
  if (process.env[REQUIRE_ALL_ENV] === '1') {
    throw new Error(`${line} (${REQUIRE_ALL_ENV}=1 turns this skip into a failure)`)
  }
  console.warn(`\n*** ${line} ***\n`)
  return false
}

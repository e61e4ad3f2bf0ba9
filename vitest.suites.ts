import { configDefaults } from 'vitest/config'

/**
 * The two test commands, by file name and project, so that a new test file is quick unless
 * it says otherwise:
 * - `pnpm test` (TASKLANE_TESTS=quick): every `*.test.ts`, but not `*.slow.test.ts`, nor
 *   the projects that are slow as a whole (the server suite on PostgreSQL, the client as a
 *   packed package, the release);
 * - `pnpm test:slow` (TASKLANE_TESTS=slow): exactly those;
 * - neither (a plain `vitest run`, as for one file named on the command line): all of them.
 * CI (`.ci/run`) runs both commands.
 */
export type Suite = 'quick' | 'slow' | 'all'

const chosen = process.env.TASKLANE_TESTS
if (chosen !== undefined && chosen !== 'quick' && chosen !== 'slow') {
  throw new Error(`TASKLANE_TESTS is "${chosen}": it may be "quick", "slow" or unset (all).`)
}

/** The suite this run takes. */
export const SUITE: Suite = chosen ?? 'all'

/** A test file named for the slow suite: process-level, crash, full disk, external programs. */
const SLOW_FILE = '**/*.slow.test.ts'

/**
 * The `include` and `exclude` of a project that holds quick and slow files alike, its
 * test files being `test/**\/*.test.ts`.
 */
export function testFiles(): { include: string[]; exclude: string[] } {
  const exclude = [...configDefaults.exclude]
  if (SUITE === 'quick') return { include: ['test/**/*.test.ts'], exclude: [...exclude, SLOW_FILE] }
  if (SUITE === 'slow') return { include: [`test/${SLOW_FILE}`], exclude }
  return { include: ['test/**/*.test.ts'], exclude }
}

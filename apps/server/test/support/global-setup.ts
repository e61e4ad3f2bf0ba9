import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { isAlive } from '@tasklane/testing/launch'
import type { TestProject } from 'vitest/node'

const SERVER_DIR = join(import.meta.dirname, '../..')
/** Inside apps/server, so that the copied build's imports still resolve. */
const COPIES = join(SERVER_DIR, 'node_modules/.cache/tasklane-test')

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory of this run's copy of the server's build (main.js and its worker). */
    serverBuild: string
  }
}

/**
 * Builds dist/ once per run, then copies it for the tests that start real server
 * processes: `pnpm start` (shutdown.slow.test.ts) rebuilds dist/ while other test files are
 * starting processes, and a copy taken before any test runs cannot change under them.
 * Each run has its own copy, named after its process, removed when the run ends (and by
 * a later run, if this one was killed).
 */
export default function setup(project: TestProject): () => void {
  const tsup = join(SERVER_DIR, 'node_modules/tsup/dist/cli-default.js')
  execFileSync(process.execPath, [tsup, '--silent'], { cwd: SERVER_DIR, stdio: 'inherit' })
  mkdirSync(COPIES, { recursive: true })
  for (const name of readdirSync(COPIES)) {
    const pid = Number(/-(\d+)$/.exec(name)?.[1])
    if (!isAlive(pid)) rmSync(join(COPIES, name), { recursive: true, force: true })
  }
  const copy = join(COPIES, `${project.name}-${process.pid}`)
  cpSync(join(SERVER_DIR, 'dist'), copy, { recursive: true })
  project.provide('serverBuild', copy)
  return () => rmSync(copy, { recursive: true, force: true })
}

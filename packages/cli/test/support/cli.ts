import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { ROOT } from '@tasklane/testing/packages'
import { runToEnd } from '@tasklane/testing/run'

/** The built `tasklane`, as the package's bin runs it. */
export const CLI = join(ROOT, 'packages/cli/dist/main.js')

/** How a `tasklane` run ended. */
export interface Result {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * The environment of a run: this process's, without any TASKLANE_ variable of the
 * machine, plus `env`; stdout and stderr are pipes, never a terminal.
 */
export function cliEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('TASKLANE_')),
  )
  return { ...clean, ...env }
}

/** Runs `tasklane …args` to its end. */
export async function tasklane(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Result> {
  const { code, stdout, stderr } = await runToEnd(process.execPath, [CLI, ...args], {
    env: cliEnv(env),
    timeoutMs: 120_000,
  })
  return { status: code, stdout, stderr }
}

/** A `tasklane` that keeps running (watch, a long import), its output gathered as it comes. */
export interface Running {
  readonly child: ChildProcess
  /** Everything written to stdout so far. */
  stdout(): string
  stderr(): string
  /** Settles with the exit status (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ status: number | null; signal: NodeJS.Signals | null }>
}

/** Starts `tasklane …args` without waiting for it. */
export function startTasklane(args: readonly string[], env: NodeJS.ProcessEnv = {}): Running {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (status, signal) => resolve({ status, signal })),
  )
  return { child, stdout: () => stdout, stderr: () => stderr, exited }
}

/** Polls `check` every 20 ms until it returns true; fails after `ms` naming `what`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

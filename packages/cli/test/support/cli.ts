import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { ROOT } from '@tasklane/testing/packages'
import { runToEnd } from '@tasklane/testing/run'
import manifest from '../../package.json' with { type: 'json' }
import type { Output } from '../../src/context.js'
import { run } from '../../src/run.js'

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

/** Runs `tasklane …args` to its end, and says the most memory (resident, in bytes) it held. */
export async function tasklaneMeasured(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Result & { maxRss: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'tasklane-rss-'))
  try {
    const report = join(dir, 'max-rss')
    const result = await tasklane(args, {
      ...env,
      NODE_OPTIONS: `--import=${join(import.meta.dirname, 'report-max-rss.mjs')}`,
      TASKLANE_TEST_MAX_RSS_FILE: report,
    })
    return { ...result, maxRss: Number(readFileSync(report, 'utf8')) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** An output stream of `run()` that keeps what is written: a pipe, never a terminal. */
export function collected(): Output & { text: string } {
  return {
    text: '',
    write(chunk: string) {
      this.text += chunk
      return true
    },
    once: () => undefined,
  }
}

/**
 * `tasklane …args` in this process: `run()`, which the bin's main.ts calls with its
 * process's arguments, TASKLANE_URL and TASKLANE_TOKEN, streams and signals, given them
 * here (no standard input). The same command, parsing, client and output, without a
 * Node start a run: for the tests of what commands do. The tests of the process itself
 * (exit status, pipes, signals, a terminal) use `tasklane` above.
 */
export async function tasklaneInProcess(
  args: readonly string[],
  env: { TASKLANE_URL?: string; TASKLANE_TOKEN?: string } = {},
): Promise<Result> {
  const stdout = collected()
  const stderr = collected()
  const status = await run({
    argv: args,
    env: { TASKLANE_URL: env.TASKLANE_URL, TASKLANE_TOKEN: env.TASKLANE_TOKEN },
    stdin: Readable.from([]),
    stdout,
    stderr,
    signal: new AbortController().signal,
    version: manifest.version,
  })
  return { status, stdout: stdout.text, stderr: stderr.text }
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

/**
 * Starts `tasklane …args` without waiting for it; with `stdin: 'pipe'` its standard input
 * is `child.stdin`, else it reads nothing.
 */
export function startTasklane(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  stdin: 'ignore' | 'pipe' = 'ignore',
): Running {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: cliEnv(env),
    stdio: [stdin, 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  // Both are pipes, as `stdio` says.
  ;(child.stdout as Readable).setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  ;(child.stderr as Readable).setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (status, signal) => resolve({ status, signal })),
  )
  return { child, stdout: () => stdout, stderr: () => stderr, exited }
}

/** How each side of `tasklane … | tasklane …` ended. */
export interface Piped {
  readonly left: Result
  readonly right: Result
}

/** Runs `tasklane …left | tasklane …right`, stdout of the one piped into stdin of the other. */
export async function pipeTasklane(
  left: { args: readonly string[]; env?: NodeJS.ProcessEnv },
  right: { args: readonly string[]; env?: NodeJS.ProcessEnv },
): Promise<Piped> {
  const reader = startTasklane(right.args, right.env, 'pipe')
  const writer = spawn(process.execPath, [CLI, ...left.args], {
    env: cliEnv(left.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  writer.stdout.pipe(reader.child.stdin as NodeJS.WritableStream)
  let stderr = ''
  writer.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const status = await new Promise<number | null>((resolve) => writer.once('close', resolve))
  const done = await reader.exited
  return {
    left: { status, stdout: '', stderr },
    right: { status: done.status, stdout: reader.stdout(), stderr: reader.stderr() },
  }
}

/** Polls `check` every 20 ms until it returns true; fails after `ms` naming `what`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { launch, type ServerProcess } from '@tasklane/testing/launch'
import { startServer, TEST_SERVER_ENV } from '@tasklane/testing/server'
import { inject } from 'vitest'

export { isAlive, killAll, type ServerProcess, within } from '@tasklane/testing/launch'

/** apps/server, and the repository root where `pnpm start` is typed. */
export const SERVER_DIR = join(import.meta.dirname, '../..')
export const REPO_ROOT = join(SERVER_DIR, '../..')

/** main.js of the build that global-setup.ts copied for this run. */
export function serverMain(): string {
  return join(inject('serverBuild'), 'main.js')
}

/**
 * `node main.js` with these settings (DATABASE_URL above all), on an ephemeral port; with
 * `descriptors`, under that open-file limit (prlimit), so that a flood reaches it quickly.
 */
export async function startServerProcess(
  env: NodeJS.ProcessEnv,
  { descriptors }: { descriptors?: number } = {},
): Promise<ServerProcess> {
  const server = await startServer({
    main: serverMain(),
    env,
    ...(descriptors === undefined
      ? {}
      : { wrapper: ['prlimit', `--nofile=${descriptors}:${descriptors}`] }),
  })
  return server.process
}

/** How many descriptors a process has open now (Linux). */
export function openDescriptors(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length
}

/** A process's resident memory in bytes, from /proc/<pid>/status (Linux). */
export function residentBytes(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  return Number(kib) * 1024
}

/** How a short-lived `node main.js …` ended: `--help`, `--version`, a refused setting. */
export interface Run {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `node main.js` with these arguments to its end. */
export function runServer(args: readonly string[], env: NodeJS.ProcessEnv = {}): Run {
  const { status, stdout, stderr } = spawnSync(process.execPath, [serverMain(), ...args], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  })
  return { status, stdout, stderr }
}

/** A pnpm 10 to run `pnpm start` with: the one on PATH, or the one npx fetches. */
export function findPnpm(): string {
  const output = (command: string, args: string[]) =>
    execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  try {
    const pnpm = output('sh', ['-c', 'command -v pnpm'])
    if (output(pnpm, ['--version']).startsWith('10.')) return pnpm
  } catch {}
  return output('npx', ['-y', '-p', 'pnpm@10', '-c', 'command -v pnpm'])
}

/**
 * `pnpm start` at the repository root (it rebuilds dist/ and runs it), in its own process
 * group as a terminal runs it; `pid` is the server's, `child` pnpm's.
 */
export function pnpmStart(pnpm: string, env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  return launch({
    command: pnpm,
    args: ['start'],
    cwd: REPO_ROOT,
    detached: true,
    // The root script runs `pnpm` again: it must find this one.
    env: { ...TEST_SERVER_ENV, PATH: `${dirname(pnpm)}:${process.env.PATH}`, ...env },
    timeoutMs: 60_000,
  })
}

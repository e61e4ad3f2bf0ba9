import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** apps/server, the repository root, and the built server that global-setup.ts makes. */
export const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..')
export const REPO_ROOT = join(SERVER_DIR, '../..')
export const MAIN_JS = join(SERVER_DIR, 'dist/main.js')

/** How a process ended. */
export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/** A server running as a real operating-system process. */
export interface ServerProcess {
  /** The process spawned: `node dist/main.js`, or the pnpm that runs it. */
  readonly child: ChildProcess
  /** Process id of the server itself (from its log), which is `child.pid` unless wrapped. */
  readonly serverPid: number
  /** `http://127.0.0.1:NNNN`, parsed from the "Server listening at" log line. */
  readonly url: string
  readonly port: number
  /** Every line written to stdout and stderr so far. */
  readonly lines: string[]
  /** Settles when the spawned process has exited. */
  readonly exited: Promise<Exit>
  /** Resolves with the first line (already written or still to come) matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>
}

const running = new Set<ServerProcess>()

/** True while a process with this id exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Waits up to `ms` for `promise`; rejects with `what` when the time is up. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

const LOCK = join(tmpdir(), 'tasklane-test-dist.lock')

/**
 * `pnpm start` rebuilds dist/ (tsup empties it first) while other test files may be
 * starting `node dist/main.js`: both hold this lock (a directory, created atomically)
 * from spawning until the server listens. A lock older than a minute is abandoned.
 */
async function withDistLock<T>(fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(LOCK)
      break
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 60_000) rmSync(LOCK, { recursive: true })
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
  try {
    return await fn()
  } finally {
    rmSync(LOCK, { recursive: true, force: true })
  }
}

/**
 * Spawns `command` and waits until the server in it logs that it listens. `detached`
 * gives it its own process group (as a terminal would), so the group can be signalled.
 */
export function startProcess(
  command: string,
  args: string[],
  {
    env,
    cwd = REPO_ROOT,
    detached = false,
  }: { env: NodeJS.ProcessEnv; cwd?: string; detached?: boolean },
): Promise<ServerProcess> {
  return withDistLock(async () => {
    const child = spawn(command, args, { cwd, env, detached, stdio: ['ignore', 'pipe', 'pipe'] })
    const lines: string[] = []
    const waiters: { pattern: RegExp; resolve(line: string): void }[] = []
    const exited = new Promise<Exit>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    )
    for (const stream of [child.stdout, child.stderr]) {
      let rest = ''
      stream?.setEncoding('utf8').on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n')
        rest = parts.pop() ?? ''
        for (const line of parts) {
          lines.push(line)
          for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
            waiters.splice(waiters.indexOf(waiter), 1)
            waiter.resolve(line)
          }
        }
      })
    }
    const waitForLine = (pattern: RegExp, timeoutMs = 20_000) => {
      const seen = lines.find((line) => pattern.test(line))
      if (seen !== undefined) return Promise.resolve(seen)
      const line = new Promise<string>((resolve) => waiters.push({ pattern, resolve }))
      const early = exited.then((exit) => {
        throw new Error(
          `exited (${JSON.stringify(exit)}) before logging ${pattern}:\n${lines.join('\n')}`,
        )
      })
      return within(Promise.race([line, early]), timeoutMs, `a log line matching ${pattern}`)
    }
    const partial = {
      child,
      lines,
      exited,
      waitForLine,
      serverPid: child.pid ?? -1,
      url: '',
      port: 0,
    }
    running.add(partial)
    const listening = JSON.parse(await waitForLine(/Server listening at http:/)) as {
      pid: number
      msg: string
    }
    const url = (/http:\/\/[\d.]+:\d+/.exec(listening.msg) as RegExpExecArray)[0]
    const server: ServerProcess = {
      ...partial,
      serverPid: listening.pid,
      url,
      port: Number(new URL(url).port),
    }
    running.delete(partial)
    running.add(server)
    return server
  })
}

/** `node dist/main.js` on `filename`, on an ephemeral port, logging at info. */
export function startServerProcess(
  filename: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ServerProcess> {
  return startProcess(process.execPath, [MAIN_JS], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: filename,
      LOG_LEVEL: 'info',
      ...env,
    },
  })
}

/** `kill -9` and wait until the process is gone. */
export async function kill9(server: ServerProcess): Promise<Exit> {
  process.kill(server.serverPid, 'SIGKILL')
  return within(server.exited, 5_000, 'exit after SIGKILL')
}

/** Kills every process these helpers started that still runs (for afterAll). */
export async function killAll(): Promise<void> {
  for (const server of running) {
    const pid = server.child.pid ?? -1
    // A detached child leads its own process group: kill the group (pnpm and its children).
    for (const target of [-pid, pid, server.serverPid]) {
      try {
        if (pid > 0) process.kill(target, 'SIGKILL')
      } catch {}
    }
    if (server.child.exitCode === null && server.child.signalCode === null) {
      await within(server.exited, 5_000, 'exit after SIGKILL').catch(() => {})
    }
  }
  running.clear()
}

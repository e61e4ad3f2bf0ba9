import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** How a process ended. */
export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/** What to start, and how to know it is serving. */
export interface LaunchOptions {
  /** Defaults to the running Node binary. */
  readonly command?: string
  readonly args: readonly string[]
  readonly cwd?: string
  /** Merged over this process's environment. */
  readonly env?: NodeJS.ProcessEnv
  /** Its own process group (as a terminal would give it), so that the group can be signalled. */
  readonly detached?: boolean
  /**
   * Output to this file rather than kept in memory: a load generator must not spend its
   * CPU draining a pipe. Readiness is then asked of `readyPath`.
   */
  readonly logFile?: string
  /**
   * Ready when this path answers 200 on a free port chosen here (PORT is set). Without
   * it, ready when the server logs "Server listening at http://…" (start it on PORT=0).
   */
  readonly readyPath?: string
  /**
   * With `readyPath`: the port the command was told to listen on in its own arguments
   * (a program that does not read PORT), rather than one chosen here.
   */
  readonly port?: number
  readonly timeoutMs?: number
}

/** A server running as an operating-system process of its own. */
export interface ServerProcess {
  readonly child: ChildProcess
  /** The server's own pid: from its log line when it logs one, else the child's. */
  readonly pid: number
  /** `http://127.0.0.1:NNNN` */
  readonly url: string
  readonly port: number
  /** Every line written so far (empty when the output goes to a file). */
  readonly lines: string[]
  /** Settles when the process has exited. */
  readonly exited: Promise<Exit>
  /** The last lines of output, for an error message. */
  output(lines?: number): string
  /** The first line (already written or still to come) matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>
  /** SIGTERM (or `signal`), then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(options?: { signal?: NodeJS.Signals; graceMs?: number }): Promise<Exit>
  /** `kill -9`; resolves once it has exited. */
  kill(): Promise<Exit>
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

/** Waits up to `ms` for `promise`; rejects naming `what` when the time is up. */
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

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** The URL and pid in Fastify's `{"pid":…,"msg":"Server listening at http://…"}` line. */
function listeningAt(line: string): { url: string; pid: number } | undefined {
  if (!line.startsWith('{') || !line.includes('Server listening at')) return undefined
  try {
    const { msg, pid } = JSON.parse(line) as { msg?: unknown; pid?: unknown }
    const url =
      typeof msg === 'string' ? /^Server listening at (http:\/\/\S+)$/.exec(msg)?.[1] : undefined
    return url === undefined ? undefined : { url, pid: Number(pid) }
  } catch {
    return undefined
  }
}

/**
 * Starts a server process and resolves once it serves; rejects with its output if it
 * exits or times out first. Every process started here is killed by `killAll`.
 */
export async function launch(options: LaunchOptions): Promise<ServerProcess> {
  const timeoutMs = options.timeoutMs ?? 20_000
  const port = options.readyPath === undefined ? undefined : (options.port ?? (await freePort()))
  const env = { ...process.env, ...options.env }
  if (port !== undefined) Object.assign(env, { PORT: String(port), HOST: '127.0.0.1' })
  const fd = options.logFile === undefined ? undefined : openSync(options.logFile, 'w')
  const child = spawn(options.command ?? process.execPath, [...options.args], {
    cwd: options.cwd,
    env,
    detached: options.detached,
    stdio: fd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
  })
  if (fd !== undefined) closeSync(fd)

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
  const output = (count = 30) => {
    const all =
      options.logFile === undefined ? lines : readFileSync(options.logFile, 'utf8').split('\n')
    return all.slice(-count).join('\n')
  }
  const waitForLine = (pattern: RegExp, ms = timeoutMs) => {
    const seen = lines.find((line) => pattern.test(line))
    if (seen !== undefined) return Promise.resolve(seen)
    const line = new Promise<string>((resolve) => waiters.push({ pattern, resolve }))
    const early = exited.then((exit) => {
      throw new Error(`exited (${JSON.stringify(exit)}) before logging ${pattern}:\n${output()}`)
    })
    return within(Promise.race([line, early]), ms, `a log line matching ${pattern}`)
  }
  const gone = () => child.exitCode !== null || child.signalCode !== null
  const stop: ServerProcess['stop'] = async ({ signal = 'SIGTERM', graceMs = 5_000 } = {}) => {
    if (!gone()) {
      child.kill(signal)
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
      await exited
      clearTimeout(timer)
    }
    return exited
  }
  const kill = () => {
    if (!gone()) child.kill('SIGKILL')
    return within(exited, 5_000, 'exit after SIGKILL')
  }
  const partial = { child, lines, exited, output, waitForLine, stop, kill, pid: child.pid ?? -1 }
  const placeholder = { ...partial, url: '', port: 0 }
  running.add(placeholder)
  void exited.then(() => running.delete(placeholder))
  try {
    let server: ServerProcess
    if (port === undefined) {
      const line = await waitForLine(/Server listening at http:/)
      const { url, pid } = listeningAt(line) ?? { url: '', pid: Number.NaN }
      server = { ...partial, url, port: Number(new URL(url).port), pid: pid || partial.pid }
    } else {
      server = { ...partial, url: `http://127.0.0.1:${port}`, port }
      await waitUntilReady(server, options.readyPath as string, timeoutMs)
    }
    running.delete(placeholder)
    running.add(server)
    void exited.then(() => running.delete(server))
    return server
  } catch (error) {
    await kill()
    throw error
  }
}

async function waitUntilReady(server: ServerProcess, path: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  let exit: Exit | undefined
  void server.exited.then((value) => {
    exit = value
  })
  while (exit === undefined && Date.now() < deadline) {
    try {
      const response = await fetch(server.url + path, { signal: AbortSignal.timeout(1_000) })
      await response.arrayBuffer()
      if (response.status === 200) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const why =
    exit === undefined ? 'did not become ready in time' : `exited (${JSON.stringify(exit)})`
  throw new Error(`${server.child.spawnfile} ${why}:\n${server.output()}`)
}

/**
 * Kills every process started here that still runs, with its process group when it has
 * one of its own (pnpm and its children); safe in afterAll and in an exit handler.
 */
export function killAll(): Promise<void> {
  const all = [...running]
  running.clear()
  for (const server of all) {
    const pid = server.child.pid ?? -1
    for (const target of [-pid, pid, server.pid]) {
      try {
        if (pid > 0) process.kill(target, 'SIGKILL')
      } catch {}
    }
  }
  return Promise.all(
    all.map((server) => within(server.exited, 5_000, 'exit after SIGKILL').catch(() => {})),
  ).then(() => {})
}

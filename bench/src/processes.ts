import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'

/** A server running as a child process on 127.0.0.1. */
export interface ServerProcess {
  readonly name: string
  readonly pid: number
  readonly url: string
  /** The last lines the process wrote to stderr and stdout, for error messages. */
  output(): string
  /** SIGTERM, then SIGKILL after a grace period; resolves once the process is gone. */
  stop(): Promise<void>
}

const children = new Set<ChildProcess>()

/** Kills every child still running; safe to call from an `exit` handler (synchronous). */
export function killAllChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  children.clear()
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
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

export interface StartOptions {
  name: string
  command: string
  args: string[]
  cwd: string
  env: Record<string, string>
  /** Path polled with GET until it answers 200. */
  readyPath: string
  /** Directory that receives the process's output file. */
  logDir: string
  timeoutMs?: number
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
  } catch {
    return ''
  }
}

/**
 * Starts a server process with `PORT` and `HOST=127.0.0.1` set and waits until `readyPath`
 * answers 200. Rejects, with the process's last output, if it exits or times out first.
 */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const logFile = join(options.logDir, `${options.name.replace(/\W+/g, '-')}-${port}.log`)
  const fd = openSync(logFile, 'w')
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    // Output goes to a file: a pipe the parent had to drain would cost the load generator CPU.
    stdio: ['ignore', fd, fd],
  })
  closeSync(fd)
  children.add(child)
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      children.delete(child)
      resolve()
    })
  })
  const output = () => tail(logFile)
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }
  const deadline = Date.now() + (options.timeoutMs ?? 30_000)
  let alive = true
  void exited.then(() => {
    alive = false
  })
  while (alive && Date.now() < deadline) {
    try {
      const response = await fetch(url + options.readyPath, { signal: AbortSignal.timeout(1_000) })
      await response.arrayBuffer()
      if (response.status === 200) {
        return { name: options.name, pid: child.pid as number, url, output, stop }
      }
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await stop()
  const why = alive ? 'did not become ready in time' : `exited with code ${child.exitCode}`
  throw new Error(`${options.name} ${why}:\n${output()}`)
}

/** Resident and peak-resident memory of a process, in bytes, from /proc/<pid>/status. */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)
    return match ? Number(match[1]) * 1024 : Number.NaN
  }
  return { rss: field('VmRSS'), hwm: field('VmHWM') }
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0); false where the kernel does not allow it. */
export function resetPeakMemory(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}
